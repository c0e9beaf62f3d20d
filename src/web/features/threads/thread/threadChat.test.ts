import { describe, expect, it } from 'vitest';
import { threadConversation } from './threadChat.js';

const sys = { role: 'system', content: 'Be brief.' };
const reply = (content: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content } }] });
const texts = (turn: { role: string; text: string }[]) => turn.map((m) => `${m.role}: ${m.text}`);

describe('threadConversation', () => {
  it('shows only what each OpenAI-style turn adds to the history it resends', () => {
    const u1 = { role: 'user', content: 'Hi' };
    const u2 = { role: 'user', content: 'And then?' };
    const turns = [
      { inputs: { messages: [sys, u1] }, output: reply('Hello!') },
      { inputs: { messages: [sys, u1, { role: 'assistant', content: 'Hello!' }, u2] }, output: reply('Then this.') },
    ];
    const [first, second] = threadConversation(turns);
    expect(texts(first!)).toEqual(['system: Be brief.', 'user: Hi', 'assistant: Hello!']);
    expect(texts(second!)).toEqual(['user: And then?', 'assistant: Then this.']);
    expect(second![1]!.fromOutput).toBe(true);
  });

  it('falls back to the messages after the last reply when the history was trimmed', () => {
    const turns = [
      { inputs: { messages: [sys, { role: 'user', content: 'One' }] }, output: reply('1') },
      { inputs: { messages: [sys, { role: 'assistant', content: 'summary' }, { role: 'user', content: 'Two' }] }, output: reply('2') },
    ];
    expect(texts(threadConversation(turns)[1]!)).toEqual(['user: Two', 'assistant: 2']);
  });

  it('reads Anthropic content blocks, tool use included', () => {
    const turns = [
      {
        inputs: { messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }] },
        output: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'weather', input: { city: 'Oslo' } }] },
      },
    ];
    const [turn] = threadConversation(turns);
    expect(turn![0]!.text).toBe('Weather?');
    expect(turn![1]!.toolCalls).toEqual([{ id: 'tu_1', name: 'weather', arguments: { city: 'Oslo' } }]);
  });

  it('turns plain inputs and outputs into a user message and a reply', () => {
    const turns = [
      { inputs: { question: 'Why?', user_id: 'u1' }, output: { answer: 'Because.' } },
      { inputs: { config: { a: 1 }, n: 2 }, output: null },
      { inputs: {}, output: 'done' },
    ];
    const [a, b, c] = threadConversation(turns);
    expect(texts(a!)).toEqual(['user: Why?', 'assistant: Because.']);
    expect(b).toHaveLength(1);
    expect(JSON.parse(b![0]!.text)).toEqual({ config: { a: 1 }, n: 2 });
    expect(texts(c!)).toEqual(['assistant: done']);
  });
});
