/**
 * Request validation: zod issues become FastAPI-style 422 details, so clients written for
 * the Weave server read our errors unchanged (`loc` starts with "body", "query" or "path").
 */
import type { z } from 'zod';
import type { ValidationIssue } from '../../contract/errors.js';
import { ValidationError } from '../errors.js';

export type InputSource = 'body' | 'query' | 'path';

/** Parses `input` with `schema`, or throws a ValidationError whose locs name the source. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  sourceOf: (key: string | number | undefined) => InputSource = () => 'body',
): z.output<S> {
  // reportInput: zod 4 leaves `input` off issues otherwise, and we need it to tell a missing
  // field from a present one of the wrong type.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.map((issue) => toDetail(issue, sourceOf)));
}

function toDetail(issue: z.core.$ZodIssue, sourceOf: (key: string | number | undefined) => InputSource): ValidationIssue {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  const loc = [sourceOf(path[0]), ...path];
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) {
    return { loc, msg: 'Field required', type: 'missing' };
  }
  if (issue.code === 'unrecognized_keys') {
    return { loc, msg: issue.message, type: 'extra_forbidden' };
  }
  return { loc, msg: issue.message, type: detailType(issue) };
}

function detailType(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_format':
      return 'string_pattern_mismatch';
    case 'invalid_value':
      return 'enum';
    case 'invalid_union':
      return 'union_invalid';
    default:
      return issue.code;
  }
}

/**
 * Query-string and path values arrive as strings; convert those whose schema field is a
 * number, boolean or array, so one schema serves JSON bodies and query strings alike.
 */
export function coerceStrings(schema: z.ZodType, raw: Record<string, unknown>, isString: (key: string) => boolean): void {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return;
  for (const [key, value] of Object.entries(raw)) {
    if (!isString(key) || !shape[key]) continue;
    const kind = baseKind(shape[key]);
    if (kind.array) raw[key] = (Array.isArray(value) ? value : [value]).map((v) => coerced(v, kind.item));
    else raw[key] = coerced(Array.isArray(value) ? value[value.length - 1] : value, kind.item);
  }
}

/** A path or query string as the number or boolean its field takes, when it reads as one. */
function coerced(v: unknown, item: string): unknown {
  if (typeof v !== 'string') return v;
  if (item === 'number') return v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  if (item === 'boolean') return v === 'true' ? true : v === 'false' ? false : v;
  return v;
}

function baseKind(schema: z.ZodType): { array: boolean; item: string } {
  let def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; element?: z.ZodType } }).def;
  while (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type)) {
    def = (def.innerType as unknown as { def: typeof def }).def;
  }
  if (def.type === 'array' && def.element) return { array: true, item: baseKind(def.element).item };
  return { array: false, item: def.type };
}
