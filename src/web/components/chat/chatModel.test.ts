import { describe, expect, it } from 'vitest';
import { extractChat } from './chatModel.js';

describe('extractChat', () => {
  it('reads OpenAI messages, tool calls and the choice in the output', () => {
    const chat = extractChat({
      inputs: {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: '3°C' },
        ],
      },
      output: { choices: [{ message: { role: 'assistant', content: 'Cold: 3°C.' } }] },
    });
    expect(chat?.map((m) => [m.role, m.text, m.fromOutput])).toEqual([
      ['system', 'Be brief.', false],
      ['user', 'Weather?', false],
      ['assistant', '', false],
      ['tool', '3°C', false],
      ['assistant', 'Cold: 3°C.', true],
    ]);
    expect(chat?.[2]?.toolCalls).toEqual([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]);
    expect(chat?.[3]?.toolCallId).toBe('c1');
  });

  it('reads Anthropic tool_use blocks in an output message', () => {
    const chat = extractChat({
      inputs: {},
      output: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'search', input: { q: 'x' } }] },
    });
    expect(chat?.[0]?.toolCalls).toEqual([{ id: 't1', name: 'search', arguments: { q: 'x' } }]);
  });

  it('is null for calls that are not conversations', () => {
    expect(extractChat({ inputs: { question: 'hi' }, output: { answer: 'yo' } })).toBeNull();
    expect(extractChat({ inputs: { messages: ['not a message'] }, output: null })).toBeNull();
  });

  it('reads a plain-text output as the reply to a prompt of messages, and leaves other calls alone', () => {
    const chat = extractChat({ inputs: { messages: [{ role: 'user', content: 'Hi?' }] }, output: 'Hello!' });
    expect(chat?.map((m) => [m.role, m.text, m.fromOutput])).toEqual([
      ['user', 'Hi?', false],
      ['assistant', 'Hello!', true],
    ]);
    expect(extractChat({ inputs: { q: 'Hi?' }, output: 'Hello!' })).toBeNull();
  });
});
