/**
 * AnnotationSpec objects (what the Weave SDKs create with `weave.AnnotationSpec(...)`): reading
 * a spec's JSON Schema `field_schema` into one of the four kinds of input the dashboard offers
 * (yes/no, number with its range, category, free text with its length limit), writing the
 * schema and the stored object for a new spec, and checking a value against its kind. Both the
 * feedback panel and annotation queues read specs through this one module.
 */

/** How an annotation is entered. `unsupported`: a schema the dashboard cannot edit (shown read-only). */
export type AnnotationField =
  | { kind: 'boolean' }
  | { kind: 'number'; integer: boolean; min: number | null; max: number | null }
  | { kind: 'category'; options: string[] }
  | { kind: 'text'; maxLength: number | null }
  | { kind: 'unsupported' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The kind a JSON-Schema `field_schema` asks for. A string enum is a category, typed or not. */
export function parseFieldSchema(schema: unknown): AnnotationField {
  if (!isObj(schema)) return { kind: 'unsupported' };
  const type = schema.type;
  if (Array.isArray(schema.enum) && (type === undefined || type === 'string') && schema.enum.every((o) => typeof o === 'string')) {
    return { kind: 'category', options: schema.enum as string[] };
  }
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'number' || type === 'integer') {
    return { kind: 'number', integer: type === 'integer', min: numOrNull(schema.minimum), max: numOrNull(schema.maximum) };
  }
  if (type === 'string') return { kind: 'text', maxLength: numOrNull(schema.maxLength) };
  return { kind: 'unsupported' };
}

/** The field_schema for a kind (the inverse of parseFieldSchema). */
export function buildFieldSchema(field: AnnotationField): Obj {
  switch (field.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number': {
      const schema: Obj = { type: field.integer ? 'integer' : 'number' };
      if (field.min !== null) schema.minimum = field.min;
      if (field.max !== null) schema.maximum = field.max;
      return schema;
    }
    case 'category':
      return { type: 'string', enum: field.options };
    case 'text':
      return field.maxLength !== null ? { type: 'string', maxLength: field.maxLength } : { type: 'string' };
    case 'unsupported':
      return {};
  }
}

/** The stored AnnotationSpec object, as the Weave SDK writes it. */
export function buildSpecValue({ name, description, field }: { name: string; description: string; field: AnnotationField }): Obj {
  return {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name,
    description: description || null,
    field_schema: buildFieldSchema(field),
    unique_among_creators: true,
    op_scope: null,
  };
}

/** `weave:///<entity>/<project>/object/<name>:<digest>`: what annotation feedback points at. */
export function objectRef({ projectId, name, digest }: { projectId: string; name: string; digest: string }): string {
  return `weave:///${projectId}/object/${name}:${digest}`;
}

/** Spec names become feedback types (`wandb.annotation.<name>`) and object ids. */
export const SPEC_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** A short description of a kind for lists: `Yes / no`, `Score 1–5`, `Category: a, b, c`. */
export function describeField(field: AnnotationField): string {
  switch (field.kind) {
    case 'boolean':
      return 'Yes / no';
    case 'number':
      return field.min !== null && field.max !== null ? `Score ${field.min}–${field.max}` : field.integer ? 'Whole number' : 'Number';
    case 'category':
      return `Category: ${field.options.join(', ')}`;
    case 'text':
      return field.maxLength !== null ? `Text (≤ ${field.maxLength} chars)` : 'Text';
    case 'unsupported':
      return 'Unsupported schema';
  }
}

/** Why a value does not fit the field, or null when it does. */
export function checkValue(field: AnnotationField, value: unknown): string | null {
  if (field.kind === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number';
    if (field.integer && !Number.isInteger(value)) return 'Enter a whole number';
    if (field.min !== null && value < field.min) return `At least ${field.min}`;
    if (field.max !== null && value > field.max) return `At most ${field.max}`;
  }
  if (field.kind === 'text' && typeof value === 'string') {
    if (value.trim() === '') return 'Enter some text';
    if (field.maxLength !== null && value.length > field.maxLength) return `At most ${field.maxLength} characters`;
  }
  return null;
}

/** A typed number as the value to send, or why it does not fit the field. */
export function parseNumber(text: string, field: Extract<AnnotationField, { kind: 'number' }>): { value: number } | { error: string } {
  const value = text.trim() === '' ? NaN : Number(text.trim());
  const error = checkValue(field, value);
  return error === null ? { value } : { error };
}
