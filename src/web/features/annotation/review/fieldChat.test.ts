/** Which call fields read as a conversation. */
import { describe, expect, it } from 'vitest';
import { chatOf, isFlatRecord } from './fieldChat.js';

describe('chatOf', () => {
  it('reads a message list', () => {
    expect(chatOf([{ role: 'user', content: 'hi' }])?.map((m) => [m.role, m.text])).toEqual([['user', 'hi']]);
  });
  it('reads inputs holding messages, and a chat reply', () => {
    expect(chatOf({ model: 'x', messages: [{ role: 'system', content: 's' }] })).toHaveLength(1);
    expect(chatOf({ choices: [{ message: { role: 'assistant', content: 'yes' } }] })?.[0]).toMatchObject({
      role: 'assistant',
      text: 'yes',
      fromOutput: true,
    });
  });
  it('leaves other values to the JSON viewer', () => {
    expect(chatOf({ answer: 'x' })).toBeNull();
    expect(chatOf('text')).toBeNull();
    expect(chatOf([])).toBeNull();
    expect(chatOf([1, 2])).toBeNull();
  });
});

describe('isFlatRecord', () => {
  it('takes small objects of plain values only', () => {
    expect(isFlatRecord({ answer: 'x', score: 3, ok: true, none: null })).toBe(true);
    expect(isFlatRecord({ nested: { a: 1 } })).toBe(false);
    expect(isFlatRecord({})).toBe(false);
    expect(isFlatRecord(['a'])).toBe(false);
  });
});
