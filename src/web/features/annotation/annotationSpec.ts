/**
 * AnnotationSpec objects, the questions a queue asks: reading a spec's `field_schema` into one of
 * the four kinds the review form knows (yes/no, score, category, free text), building the
 * schema and the stored object for a new spec, and the number-key choices of each kind.
 */

/** What a reviewer fills in for one spec. */
export type FieldKind =
  | { kind: 'boolean' }
  | { kind: 'score'; min: number | null; max: number | null; integer: boolean }
  | { kind: 'category'; options: string[] }
  | { kind: 'text'; maxLength: number | null }
  | { kind: 'unsupported' };

/** One question of a queue: the spec's ref, name and kind. */
export interface QueueField {
  ref: string;
  name: string;
  description: string;
  kind: FieldKind;
}

/** A choice a number key picks: `key` is the digit shown and pressed. */
export interface KeyChoice {
  key: string;
  value: string | number | boolean;
  label: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The kind a JSON-Schema `field_schema` asks for. */
export function parseFieldKind(schema: unknown): FieldKind {
  if (!isObj(schema)) return { kind: 'unsupported' };
  const type = schema.type;
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'number' || type === 'integer') {
    return { kind: 'score', min: numOrNull(schema.minimum), max: numOrNull(schema.maximum), integer: type === 'integer' };
  }
  if (type === 'string') {
    if (Array.isArray(schema.enum)) return { kind: 'category', options: schema.enum.filter((o): o is string => typeof o === 'string') };
    return { kind: 'text', maxLength: numOrNull(schema.maxLength) };
  }
  return { kind: 'unsupported' };
}

/** A queue field from a resolved spec value (null when the ref did not resolve to a spec). */
export function toQueueField(ref: string, val: unknown): QueueField {
  const spec = isObj(val) ? val : {};
  const fallbackName = /\/object\/([^/:]+)/.exec(ref)?.[1] ?? ref;
  return {
    ref,
    name: typeof spec.name === 'string' && spec.name ? spec.name : fallbackName,
    description: typeof spec.description === 'string' ? spec.description : '',
    kind: parseFieldKind(spec.field_schema),
  };
}

/** The field_schema for a kind (the inverse of parseFieldKind). */
export function buildFieldSchema(kind: FieldKind): Obj {
  switch (kind.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'score': {
      const schema: Obj = { type: kind.integer ? 'integer' : 'number' };
      if (kind.min !== null) schema.minimum = kind.min;
      if (kind.max !== null) schema.maximum = kind.max;
      return schema;
    }
    case 'category':
      return { type: 'string', enum: kind.options };
    case 'text':
      return kind.maxLength !== null ? { type: 'string', maxLength: kind.maxLength } : { type: 'string' };
    case 'unsupported':
      return {};
  }
}

/** The stored AnnotationSpec object, as the Weave SDK writes it. */
export function buildSpecValue({ name, description, kind }: { name: string; description: string; kind: FieldKind }): Obj {
  return {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name,
    description: description || null,
    field_schema: buildFieldSchema(kind),
    unique_among_creators: true,
    op_scope: null,
  };
}

/** `weave:///<entity>/<project>/object/<name>:<digest>`. */
export function objectRef({ projectId, name, digest }: { projectId: string; name: string; digest: string }): string {
  return `weave:///${projectId}/object/${name}:${digest}`;
}

/** Spec names become feedback types (`wandb.annotation.<name>`) and object ids. */
export const SPEC_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The choices number keys pick, or null when the kind takes typed input. Booleans: 1 = yes,
 * 2 = no. Categories: 1–9 in order. Integer scores inside 0–9 use their own digit (a 1–5 score
 * is picked with 1–5); other small integer ranges (at most nine values) count from 1.
 */
export function keyChoices(kind: FieldKind): KeyChoice[] | null {
  if (kind.kind === 'boolean') {
    return [
      { key: '1', value: true, label: 'Yes' },
      { key: '2', value: false, label: 'No' },
    ];
  }
  if (kind.kind === 'category') {
    return kind.options.slice(0, 9).map((o, i) => ({ key: String(i + 1), value: o, label: o }));
  }
  if (kind.kind === 'score' && kind.integer && kind.min !== null && kind.max !== null && kind.max >= kind.min) {
    const values = Array.from({ length: kind.max - kind.min + 1 }, (_, i) => kind.min! + i);
    if (kind.min >= 0 && kind.max <= 9) return values.map((v) => ({ key: String(v), value: v, label: String(v) }));
    if (values.length <= 9) return values.map((v, i) => ({ key: String(i + 1), value: v, label: String(v) }));
  }
  return null;
}

/** Categories beyond the ninth have no key but can still be clicked. */
export function allChoices(kind: FieldKind): KeyChoice[] | null {
  if (kind.kind !== 'category') return keyChoices(kind);
  return kind.options.map((o, i) => ({ key: i < 9 ? String(i + 1) : '', value: o, label: o }));
}

/** A short description of a kind for lists: `Yes / no`, `Score 1–5`, `Category: a, b, c`. */
export function describeKind(kind: FieldKind): string {
  switch (kind.kind) {
    case 'boolean':
      return 'Yes / no';
    case 'score':
      return kind.min !== null && kind.max !== null ? `Score ${kind.min}–${kind.max}` : kind.integer ? 'Whole number' : 'Number';
    case 'category':
      return `Category: ${kind.options.join(', ')}`;
    case 'text':
      return kind.maxLength !== null ? `Text (≤ ${kind.maxLength} chars)` : 'Text';
    case 'unsupported':
      return 'Unsupported schema';
  }
}

/** A typed score as the value to send, or an error message. */
export function parseScore(text: string, kind: Extract<FieldKind, { kind: 'score' }>): { value: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) return { error: 'Enter a number' };
  if (kind.integer && !Number.isInteger(value)) return { error: 'Enter a whole number' };
  if (kind.min !== null && value < kind.min) return { error: `At least ${kind.min}` };
  if (kind.max !== null && value > kind.max) return { error: `At most ${kind.max}` };
  return { value };
}
