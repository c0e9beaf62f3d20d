/** Queue questions: resolved specs and number-key choices. */
import { describe, expect, it } from 'vitest';
import type { AnnotationField } from '../../lib/annotationSpec.js';
import { keyChoices, toQueueField } from './queueFields.js';

describe('keyChoices', () => {
  const keys = (kind: AnnotationField) => keyChoices(kind)?.map((c) => [c.key, c.value]);
  it('maps yes/no to 1 and 2', () =>
    expect(keys({ kind: 'boolean' })).toEqual([
      ['1', true],
      ['2', false],
    ]));
  it('numbers categories from 1, at most nine', () => {
    const options = Array.from({ length: 12 }, (_, i) => `o${i}`);
    expect(keys({ kind: 'category', options })).toHaveLength(9);
    expect(keys({ kind: 'category', options: ['a', 'b'] })).toEqual([
      ['1', 'a'],
      ['2', 'b'],
    ]);
  });
  it('uses a score digit as its own key inside 0–9', () => {
    expect(keys({ kind: 'number', min: 1, max: 5, integer: true })).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
      ['4', 4],
      ['5', 5],
    ]);
    expect(keys({ kind: 'number', min: 0, max: 2, integer: true })).toEqual([
      ['0', 0],
      ['1', 1],
      ['2', 2],
    ]);
  });
  it('counts other small ranges from 1, and leaves wide or fractional ones to typing', () => {
    expect(keys({ kind: 'number', min: -1, max: 1, integer: true })).toEqual([
      ['1', -1],
      ['2', 0],
      ['3', 1],
    ]);
    expect(keyChoices({ kind: 'number', min: 0, max: 10, integer: true })).toBeNull();
    expect(keyChoices({ kind: 'number', min: 0, max: 1, integer: false })).toBeNull();
    expect(keyChoices({ kind: 'text', maxLength: null })).toBeNull();
  });
});

describe('toQueueField', () => {
  it('falls back to the ref name when the spec did not resolve', () => {
    expect(toQueueField('weave:///e/p/object/tone:abc', null)).toMatchObject({ name: 'tone', kind: { kind: 'unsupported' } });
  });
});
