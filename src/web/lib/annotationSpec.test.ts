/** AnnotationSpec field schemas: parsing, round trips, the stored object, value checks. */
import { describe, expect, it } from 'vitest';
import { buildFieldSchema, buildSpecValue, checkValue, parseFieldSchema, parseNumber, type AnnotationField } from './annotationSpec.js';

describe('parseFieldSchema / buildFieldSchema', () => {
  const fields: AnnotationField[] = [
    { kind: 'boolean' },
    { kind: 'number', min: 1, max: 5, integer: true },
    { kind: 'number', min: 0, max: 1, integer: false },
    { kind: 'number', min: null, max: null, integer: false },
    { kind: 'category', options: ['good', 'bad'] },
    { kind: 'text', maxLength: null },
    { kind: 'text', maxLength: 200 },
  ];
  it.each(fields)('round-trips %j', (field) => {
    expect(parseFieldSchema(buildFieldSchema(field))).toEqual(field);
  });
  it('reads a string enum as a category, with or without a type', () => {
    expect(parseFieldSchema({ enum: ['a', 'b'] })).toEqual({ kind: 'category', options: ['a', 'b'] });
    expect(parseFieldSchema({ type: 'string', enum: ['a', 'b'] })).toEqual({ kind: 'category', options: ['a', 'b'] });
  });
  it('calls anything else unsupported', () => {
    expect(parseFieldSchema({ type: 'array' })).toEqual({ kind: 'unsupported' });
    expect(parseFieldSchema({ type: 'integer', enum: [1, 2] })).toEqual({ kind: 'number', integer: true, min: null, max: null });
    expect(parseFieldSchema({ enum: [1, 2] })).toEqual({ kind: 'unsupported' });
    expect(parseFieldSchema(null)).toEqual({ kind: 'unsupported' });
  });
});

describe('buildSpecValue', () => {
  it('writes the object the Weave SDK writes', () => {
    expect(buildSpecValue({ name: 'quality', description: '', field: { kind: 'number', min: 1, max: 5, integer: true } })).toEqual({
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

describe('checkValue / parseNumber', () => {
  const score = { kind: 'number', min: 0, max: 10, integer: true } as const;
  it('accepts numbers in range', () => {
    expect(checkValue(score, 7)).toBeNull();
    expect(parseNumber(' 7 ', score)).toEqual({ value: 7 });
  });
  it('refuses the rest', () => {
    expect(parseNumber('', score)).toEqual({ error: 'Enter a number' });
    expect(parseNumber('7.5', score)).toEqual({ error: 'Enter a whole number' });
    expect(parseNumber('11', score)).toEqual({ error: 'At most 10' });
    expect(checkValue({ kind: 'text', maxLength: 3 }, 'long')).toBe('At most 3 characters');
    expect(checkValue({ kind: 'text', maxLength: null }, ' ')).toBe('Enter some text');
  });
});
