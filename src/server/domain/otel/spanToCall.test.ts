import { describe, expect, it } from 'vitest';
import { AttributeConflictError, expandAttributes, numericKeysToLists } from './attributeTree.js';
import { shortenName } from './spanToCall.js';

describe('shortenName', () => {
  it('cuts at a delimiter and appends the abbreviation', () => {
    expect(shortenName('hello/world.txt', 10, '...', true)).toBe('hello/...');
    expect(shortenName('hello/world.txt', 10, '...', false)).toBe('hello...');
    expect(shortenName('verylongword', 8, '...', true)).toBe('veryl...');
    expect(shortenName('short', 10, '...', true)).toBe('short');
  });

  it('keeps long op names within 128 characters with a hash suffix', () => {
    const name = `step ${'x'.repeat(200)}`;
    const short = shortenName(name, 128, ':ab12', false);
    expect(short.length).toBeLessThanOrEqual(128);
    expect(short.endsWith(':ab12')).toBe(true);
  });
});

describe('expandAttributes', () => {
  it('nests dotted keys and parses JSON-looking strings', () => {
    expect(
      expandAttributes([
        ['a.b', 1],
        ['a.c', '{"d": [1]}'],
        ['x', 'plain'],
      ]),
    ).toEqual({ a: { b: 1, c: { d: [1] } }, x: 'plain' });
  });

  it('refuses a key that is both a value and a prefix, in either order', () => {
    expect(() =>
      expandAttributes([
        ['a.b', 1],
        ['a.b.c', 2],
      ]),
    ).toThrow(AttributeConflictError);
    expect(() =>
      expandAttributes([
        ['a.b.c', 2],
        ['a.b', 1],
      ]),
    ).toThrow(AttributeConflictError);
  });

  it('turns numbered keys into lists', () => {
    expect(numericKeysToLists({ 1: 'b', 0: 'a' })).toEqual(['a', 'b']);
    expect(numericKeysToLists({ 0: 'a', 2: 'c' })).toEqual({ 0: 'a', 2: 'c' });
  });
});
