import { describe, expect, it } from 'vitest';
import { matchesSchema } from './jsonSchema.js';

describe('matchesSchema', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['an integer in range', { type: 'integer', minimum: 0, maximum: 10 }, 3, true],
    ['a float where integers are asked', { type: 'integer' }, 3.5, false],
    ['a number above maximum', { type: 'number', maximum: 1 }, 1.5, false],
    ['an exclusive bound', { type: 'number', exclusiveMinimum: 0 }, 0, false],
    ['a string within maxLength', { type: 'string', maxLength: 3 }, 'abc', true],
    ['a string over maxLength (code points)', { type: 'string', maxLength: 2 }, '😀😀😀', false],
    ['an enum member', { type: 'string', enum: ['good', 'bad'] }, 'good', true],
    ['a value outside the enum', { enum: ['good', 'bad'] }, 'meh', false],
    ['a boolean', { type: 'boolean' }, false, true],
    ['a type list', { type: ['string', 'null'] }, null, true],
    ['a required property missing', { type: 'object', required: ['a'], properties: { a: { type: 'number' } } }, { b: 1 }, false],
    ['a nested property of the wrong type', { type: 'object', properties: { a: { type: 'number' } } }, { a: 'x' }, false],
    ['list items', { type: 'array', items: { type: 'string' }, maxItems: 2 }, ['a', 'b'], true],
    ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, true, false],
    ['an unknown keyword is ignored', { format: 'email' }, 'not-an-email', true],
  ];
  for (const [what, schema, value, expected] of cases) {
    it(`${expected ? 'accepts' : 'refuses'} ${what}`, () => expect(matchesSchema(value, schema)).toBe(expected));
  }
});
