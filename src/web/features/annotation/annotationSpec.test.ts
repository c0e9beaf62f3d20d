/** Spec kinds: schema round trips, number-key choices, typed scores. */
import { describe, expect, it } from 'vitest';
import { buildFieldSchema, buildSpecValue, keyChoices, parseFieldKind, parseScore, toQueueField, type FieldKind } from './annotationSpec.js';

describe('parseFieldKind / buildFieldSchema', () => {
  const kinds: FieldKind[] = [
    { kind: 'boolean' },
    { kind: 'score', min: 1, max: 5, integer: true },
    { kind: 'score', min: 0, max: 1, integer: false },
    { kind: 'score', min: null, max: null, integer: false },
    { kind: 'category', options: ['good', 'bad'] },
    { kind: 'text', maxLength: null },
    { kind: 'text', maxLength: 200 },
  ];
  it.each(kinds)('round-trips %j', (kind) => {
    expect(parseFieldKind(buildFieldSchema(kind))).toEqual(kind);
  });
  it('calls anything else unsupported', () => {
    expect(parseFieldKind({ type: 'array' })).toEqual({ kind: 'unsupported' });
    expect(parseFieldKind(null)).toEqual({ kind: 'unsupported' });
  });
});

describe('buildSpecValue', () => {
  it('writes the object the Weave SDK writes', () => {
    expect(buildSpecValue({ name: 'quality', description: '', kind: { kind: 'score', min: 1, max: 5, integer: true } })).toEqual({
      _type: 'AnnotationSpec',
      _class_name: 'AnnotationSpec',
      _bases: ['Object', 'BaseModel'],
      name: 'quality',
      description: null,
      field_schema: { type: 'integer', minimum: 1, maximum: 5 },
      unique_among_creators: true,
      op_scope: null,
    });
  });
});

describe('keyChoices', () => {
  const keys = (kind: FieldKind) => keyChoices(kind)?.map((c) => [c.key, c.value]);
  it('maps yes/no to 1 and 2', () => expect(keys({ kind: 'boolean' })).toEqual([['1', true], ['2', false]]));
  it('numbers categories from 1, at most nine', () => {
    const options = Array.from({ length: 12 }, (_, i) => `o${i}`);
    expect(keys({ kind: 'category', options })).toHaveLength(9);
    expect(keys({ kind: 'category', options: ['a', 'b'] })).toEqual([['1', 'a'], ['2', 'b']]);
  });
  it('uses a score digit as its own key inside 0–9', () => {
    expect(keys({ kind: 'score', min: 1, max: 5, integer: true })).toEqual([['1', 1], ['2', 2], ['3', 3], ['4', 4], ['5', 5]]);
    expect(keys({ kind: 'score', min: 0, max: 2, integer: true })).toEqual([['0', 0], ['1', 1], ['2', 2]]);
  });
  it('counts other small ranges from 1, and leaves wide or fractional ones to typing', () => {
    expect(keys({ kind: 'score', min: -1, max: 1, integer: true })).toEqual([['1', -1], ['2', 0], ['3', 1]]);
    expect(keyChoices({ kind: 'score', min: 0, max: 10, integer: true })).toBeNull();
    expect(keyChoices({ kind: 'score', min: 0, max: 1, integer: false })).toBeNull();
    expect(keyChoices({ kind: 'text', maxLength: null })).toBeNull();
  });
});

describe('parseScore', () => {
  const kind = { kind: 'score', min: 0, max: 10, integer: true } as const;
  it('accepts numbers in range', () => expect(parseScore(' 7 ', kind)).toEqual({ value: 7 }));
  it('refuses the rest', () => {
    expect(parseScore('', kind)).toHaveProperty('error');
    expect(parseScore('7.5', kind)).toEqual({ error: 'Enter a whole number' });
    expect(parseScore('11', kind)).toEqual({ error: 'At most 10' });
  });
});

describe('toQueueField', () => {
  it('falls back to the ref name when the spec did not resolve', () => {
    expect(toQueueField('weave:///e/p/object/tone:abc', null)).toMatchObject({ name: 'tone', kind: { kind: 'unsupported' } });
  });
});
