/**
 * The part of JSON Schema that annotation specs use (`AnnotationSpec.field_schema`: strings
 * with length limits or an enum, numbers and integers with bounds, booleans, and the objects
 * and lists pydantic models produce). The reference validates with the `jsonschema` package;
 * keywords not handled here (formats, $ref, conditionals) are accepted without a check.
 */

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

/** Deep equality of JSON values, for `enum` and `const`. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** True when `value` satisfies `schema` (a boolean schema is itself the answer). */
export function matchesSchema(value: unknown, schema: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return true;
  const s = schema as Schema;
  if ('type' in s && !(Array.isArray(s.type) ? s.type : [s.type]).some((t) => typeMatches(value, t))) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value))) return false;
  if ('const' in s && !jsonEqual(s.const, value)) return false;
  if (typeof value === 'number' && !numberMatches(value, s)) return false;
  if (typeof value === 'string' && !stringMatches(value, s)) return false;
  if (Array.isArray(value) && !arrayMatches(value, s)) return false;
  if (isObject(value) && !objectMatches(value, s)) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((sub) => matchesSchema(value, sub))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => matchesSchema(value, sub))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => matchesSchema(value, sub)).length !== 1) return false;
  if ('not' in s && matchesSchema(value, s.not)) return false;
  return true;
}

function numberMatches(v: number, s: Schema): boolean {
  const [min, max, xmin, xmax, step] = [
    num(s.minimum),
    num(s.maximum),
    num(s.exclusiveMinimum),
    num(s.exclusiveMaximum),
    num(s.multipleOf),
  ];
  if (min !== null && v < min) return false;
  if (max !== null && v > max) return false;
  if (xmin !== null && v <= xmin) return false;
  if (xmax !== null && v >= xmax) return false;
  return step === null || step <= 0 || Math.abs(v / step - Math.round(v / step)) < 1e-9;
}

function stringMatches(v: string, s: Schema): boolean {
  const length = [...v].length;
  if (num(s.minLength) !== null && length < num(s.minLength)!) return false;
  if (num(s.maxLength) !== null && length > num(s.maxLength)!) return false;
  if (typeof s.pattern === 'string') {
    try {
      if (!new RegExp(s.pattern, 'u').test(v)) return false;
    } catch {
      return true;
    }
  }
  return true;
}

function arrayMatches(v: unknown[], s: Schema): boolean {
  if (num(s.minItems) !== null && v.length < num(s.minItems)!) return false;
  if (num(s.maxItems) !== null && v.length > num(s.maxItems)!) return false;
  return !('items' in s) || v.every((item) => matchesSchema(item, s.items));
}

function objectMatches(v: Record<string, unknown>, s: Schema): boolean {
  if (Array.isArray(s.required) && !s.required.every((k) => typeof k === 'string' && k in v)) return false;
  const properties = isObject(s.properties) ? s.properties : {};
  for (const [key, item] of Object.entries(v)) {
    if (key in properties) {
      if (!matchesSchema(item, properties[key])) return false;
    } else if ('additionalProperties' in s && !matchesSchema(item, s.additionalProperties)) {
      return false;
    }
  }
  return true;
}
