import { describe, expect, it } from 'vitest';
import { diffWords, outputText } from './textDiff.js';

describe('diffWords', () => {
  it('keeps shared words and marks what one side adds or removes', () => {
    expect(diffWords('The capital is Paris.', 'The capital is Lyon.')).toEqual([
      { kind: 'same', text: 'The capital is ' },
      { kind: 'removed', text: 'Paris.' },
      { kind: 'added', text: 'Lyon.' },
    ]);
  });
  it('gives the texts back when joined', () => {
    const parts = diffWords('a b c d', 'a x c d e');
    expect(
      parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe('a b c d');
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe('a x c d e');
  });
  it('answers one same part for equal texts and handles empty sides', () => {
    expect(diffWords('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
    expect(diffWords('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
  });
});

describe('outputText', () => {
  it('keeps strings and prints other values as JSON', () => {
    expect(outputText('hi')).toBe('hi');
    expect(outputText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
