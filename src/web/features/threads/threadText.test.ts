import { describe, expect, it } from 'vitest';
import { previewText, readableText } from './threadText.js';

describe('readableText', () => {
  it('finds the last user message of a chat input and the reply of a chat output', () => {
    const inputs = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second' },
      ],
    };
    expect(readableText(inputs, 'input')).toBe('second');
    expect(readableText({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }, 'output')).toBe('hi');
  });

  it('uses well-known fields, then a lone string argument', () => {
    expect(readableText({ question: 'Q', user_id: 'u' }, 'input')).toBe('Q');
    expect(readableText({ result: { answer: 'A' } }, 'output')).toBe('A');
    expect(readableText({ msg: 'only string', n: 3 }, 'input')).toBe('only string');
    expect(readableText({ a: 'x', b: 'y' }, 'input')).toBeNull();
  });
});

describe('previewText', () => {
  it('reads complete JSON previews', () => {
    expect(previewText('{"question":"Why is the sky blue?","user_id":"u1"}', 'input')).toBe('Why is the sky blue?');
    expect(previewText('"plain"', 'output')).toBe('plain');
    expect(previewText('{"x":1}', 'output')).toBe('{"x":1}');
    expect(previewText(null, 'input')).toBeNull();
    expect(previewText('null', 'output')).toBeNull();
  });

  it('reads previews cut off mid-string', () => {
    expect(previewText('{"question":"A long \\"quoted\\" question that was cu', 'input')).toBe('A long "quoted" question that was cu…');
    expect(previewText('{"question":"ends on an escape \\', 'input')).toBe('ends on an escape …');
    expect(previewText('{"weird":[1,2,', 'input')).toBe('{"weird":[1,2,');
  });
});
