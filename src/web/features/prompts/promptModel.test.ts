import { describe, expect, it } from 'vitest';
import { promptMessages, promptText, promptVariables } from './promptModel.js';

describe('prompt values', () => {
  it('reads a StringPrompt: its content and the {name} and {name:spec} variables', () => {
    const val = { _type: 'StringPrompt', content: 'Answer {question} in {lang:>10} for {question}', _class_name: 'StringPrompt' };
    expect(promptText(val)).toBe('Answer {question} in {lang:>10} for {question}');
    expect(promptVariables(val)).toEqual(['question', 'lang']);
  });

  it('reads a MessagesPrompt: roles over contents, list contents as their text parts', () => {
    const val = {
      messages: [
        { role: 'system', content: 'You are {persona}.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi {name}' }] },
      ],
    };
    expect(promptMessages(val)).toEqual([
      { role: 'system', content: 'You are {persona}.' },
      { role: 'user', content: 'Hi {name}' },
    ]);
    expect(promptText(val)).toBe('system:\nYou are {persona}.\n\nuser:\nHi {name}');
    expect(promptVariables(val)).toEqual(['persona', 'name']);
  });
});
