import { describe, expect, it } from 'vitest';
import { isLlmCall, promptRefOfInputs } from './promptModel.js';
import {
  fillVariables,
  messageVariables,
  playgroundFromPrompt,
  promptValueFromPlayground,
  renamedPromptValue,
  runByRef,
} from './promptObjects.js';

const BASES = ['Prompt', 'Object', 'BaseModel'];
// The values as the Python SDK's weave.publish writes them (the npm SDK's differ only in
// leaving out a description it was not given).
const stringPrompt = {
  _type: 'StringPrompt',
  name: 'greeter',
  description: 'hi',
  content: 'Hello {name}.',
  _class_name: 'StringPrompt',
  _bases: BASES,
};
const messagesPrompt = {
  _type: 'MessagesPrompt',
  name: 'support',
  description: null,
  messages: [
    { role: 'system', content: 'You are {persona}.' },
    { role: 'user', content: [{ type: 'text', text: 'Help with {topic:>5}' }], name: 'u1' },
  ],
  _class_name: 'MessagesPrompt',
  _bases: BASES,
};
const easyPrompt = {
  _type: 'EasyPrompt',
  name: 'easy',
  description: null,
  data: [{ role: 'user', content: 'Summarize {text}' }],
  config: { model: 'gpt-4o-mini', temperature: 0.2 },
  requirements: { text: { default: '' } },
  _class_name: 'EasyPrompt',
  _bases: ['UserList', 'MutableSequence', 'Sequence', 'Reversible', 'Collection', 'Sized', 'Iterable', 'Container', ...BASES],
};

describe('prompt objects in the playground', () => {
  it('opens each prompt class as messages, with an EasyPrompt’s model and settings', () => {
    expect(playgroundFromPrompt(stringPrompt)?.messages).toEqual([{ role: 'user', content: 'Hello {name}.' }]);
    expect(playgroundFromPrompt(messagesPrompt)?.messages).toEqual([
      { role: 'system', content: 'You are {persona}.' },
      { role: 'user', content: 'Help with {topic:>5}' },
    ]);
    const easy = playgroundFromPrompt(easyPrompt);
    expect(easy?.messages).toEqual([{ role: 'user', content: 'Summarize {text}' }]);
    expect(easy?.model).toBe('gpt-4o-mini');
    expect(easy?.params.temperature).toBe(0.2);
    expect(playgroundFromPrompt({ _type: 'Dataset', rows: 'weave:///x' })).toBeNull();
  });

  it('fills the variables it has values for and leaves the others as written', () => {
    const messages = playgroundFromPrompt(messagesPrompt)!.messages;
    expect(messageVariables(messages)).toEqual(['persona', 'topic']);
    expect(fillVariables(messages, { topic: 'billing', persona: '' }).map((m) => m.content)).toEqual([
      'You are {persona}.',
      'Help with billing',
    ]);
  });

  it('saves an unedited prompt as the very value it was opened from (same digest, no new version)', () => {
    for (const val of [stringPrompt, messagesPrompt, easyPrompt]) {
      const messages = playgroundFromPrompt(val)!.messages;
      expect(promptValueFromPlayground({ previous: val, name: val.name, messages })).toEqual(val);
    }
  });

  it('keeps the class and the untouched fields and messages of an edited prompt', () => {
    expect(
      promptValueFromPlayground({ previous: stringPrompt, name: 'greeter', messages: [{ role: 'user', content: 'Hi {name}!' }] }),
    ).toEqual({
      ...stringPrompt,
      content: 'Hi {name}!',
    });
    const edited = promptValueFromPlayground({
      previous: messagesPrompt,
      name: 'support',
      messages: [
        { role: 'system', content: 'You are {persona}.' },
        { role: 'user', content: 'Help me with {topic}' },
        { role: 'assistant', content: 'Sure.' },
      ],
    });
    expect(edited.messages).toEqual([
      messagesPrompt.messages[0],
      { role: 'user', content: 'Help me with {topic}', name: 'u1' },
      { role: 'assistant', content: 'Sure.' },
    ]);
    expect(edited._class_name).toBe('MessagesPrompt');
    const easy = promptValueFromPlayground({ previous: easyPrompt, name: 'easy', messages: [{ role: 'user', content: 'TL;DR {text}' }] });
    expect(easy).toEqual({ ...easyPrompt, data: [{ role: 'user', content: 'TL;DR {text}' }] });
  });

  it('makes a StringPrompt given several messages a MessagesPrompt, and a new prompt a MessagesPrompt', () => {
    const messages = [
      { role: 'system' as const, content: 'Be terse.' },
      { role: 'user' as const, content: 'Hello {name}.' },
    ];
    expect(promptValueFromPlayground({ previous: stringPrompt, name: 'greeter', messages })).toEqual({
      _type: 'MessagesPrompt',
      _class_name: 'MessagesPrompt',
      _bases: BASES,
      name: 'greeter',
      description: 'hi',
      messages,
    });
    const fresh = promptValueFromPlayground({ previous: null, name: 'fresh', messages });
    expect(fresh).toEqual({
      _type: 'MessagesPrompt',
      _class_name: 'MessagesPrompt',
      _bases: BASES,
      name: 'fresh',
      description: null,
      messages,
    });
    expect(renamedPromptValue(stringPrompt, 'copy')).toEqual({ ...stringPrompt, name: 'copy' });
  });

  it('runs an unedited MessagesPrompt by its ref with the filled variables, anything else by its messages', () => {
    const ref = 'weave:///e/p/object/support:abc';
    const plain = {
      ...messagesPrompt,
      messages: [
        { role: 'system', content: 'You are {persona}.' },
        { role: 'user', content: 'Hi' },
      ],
    };
    const messages = playgroundFromPrompt(plain)!.messages;
    expect(runByRef({ val: plain, ref }, messages, { persona: 'kind', other: '' })).toEqual({
      prompt: ref,
      template_vars: { persona: 'kind' },
    });
    expect(runByRef({ val: plain, ref }, [...messages, { role: 'user', content: 'more' }], {})).toBeNull();
    // The server fills {name} only, so a format spec keeps the run on its own messages.
    expect(runByRef({ val: messagesPrompt, ref }, playgroundFromPrompt(messagesPrompt)!.messages, {})).toBeNull();
    expect(runByRef({ val: stringPrompt, ref }, playgroundFromPrompt(stringPrompt)!.messages, {})).toBeNull();
    expect(runByRef(null, messages, {})).toBeNull();
  });

  it('reads the prompt a completion named by ref, so such a call opens in the playground', () => {
    const inputs = { model: 'm', messages: [], prompt: 'weave:///e/p/object/support:abc', template_vars: { topic: 'billing', n: 2 } };
    expect(promptRefOfInputs(inputs)).toEqual({ name: 'support', digest: 'abc', values: { topic: 'billing', n: '2' } });
    expect(isLlmCall(inputs)).toBe(true);
    expect(isLlmCall({ model: 'm', messages: [], prompt: 'not a ref' })).toBe(false);
  });
});
