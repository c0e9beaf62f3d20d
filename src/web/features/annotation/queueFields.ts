/**
 * A queue's questions as the review form uses them: each AnnotationSpec ref resolved to its
 * name and kind (parsed by lib/annotationSpec.ts), and the number-key choices of each kind.
 */
import { parseFieldSchema, type AnnotationField } from '../../lib/annotationSpec.js';

/** One question of a queue: the spec's ref, name and kind. */
export interface QueueField {
  ref: string;
  name: string;
  description: string;
  kind: AnnotationField;
}

/** A choice a number key picks: `key` is the digit shown and pressed. */
export interface KeyChoice {
  key: string;
  value: string | number | boolean;
  label: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A queue field from a resolved spec value (null when the ref did not resolve to a spec). */
export function toQueueField(ref: string, val: unknown): QueueField {
  const spec = isObj(val) ? val : {};
  const fallbackName = /\/object\/([^/:]+)/.exec(ref)?.[1] ?? ref;
  return {
    ref,
    name: typeof spec.name === 'string' && spec.name ? spec.name : fallbackName,
    description: typeof spec.description === 'string' ? spec.description : '',
    kind: parseFieldSchema(spec.field_schema),
  };
}

/**
 * The choices number keys pick, or null when the kind takes typed input. Booleans: 1 = yes,
 * 2 = no. Categories: 1–9 in order. Integer scores inside 0–9 use their own digit (a 1–5 score
 * is picked with 1–5); other small integer ranges (at most nine values) count from 1.
 */
export function keyChoices(kind: AnnotationField): KeyChoice[] | null {
  if (kind.kind === 'boolean') {
    return [
      { key: '1', value: true, label: 'Yes' },
      { key: '2', value: false, label: 'No' },
    ];
  }
  if (kind.kind === 'category') {
    return kind.options.slice(0, 9).map((o, i) => ({ key: String(i + 1), value: o, label: o }));
  }
  if (kind.kind === 'number' && kind.integer && kind.min !== null && kind.max !== null && kind.max >= kind.min) {
    const values = Array.from({ length: kind.max - kind.min + 1 }, (_, i) => kind.min! + i);
    if (kind.min >= 0 && kind.max <= 9) return values.map((v) => ({ key: String(v), value: v, label: String(v) }));
    if (values.length <= 9) return values.map((v, i) => ({ key: String(i + 1), value: v, label: String(v) }));
  }
  return null;
}

/** Categories beyond the ninth have no key but can still be clicked. */
export function allChoices(kind: AnnotationField): KeyChoice[] | null {
  if (kind.kind !== 'category') return keyChoices(kind);
  return kind.options.map((o, i) => ({ key: i < 9 ? String(i + 1) : '', value: o, label: o }));
}
