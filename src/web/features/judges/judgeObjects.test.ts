import { describe, expect, it } from 'vitest';
import { emptyModelForm, fromJudgeValue, fromModelValue, nameProblem, scoreText, toJudgeValue, toModelValue } from './judgeObjects.js';

describe('judge objects', () => {
  it('saves a model as the reference LLMStructuredCompletionModel and reads it back', () => {
    const form = { ...emptyModelForm('openai/gpt-4o-mini'), name: 'strict', userTemplate: 'Q: {question}', maxTokens: '200' };
    const value = toModelValue(form);
    expect(value).toMatchObject({
      _class_name: 'LLMStructuredCompletionModel',
      _bases: ['BaseObject', 'BaseModel'],
      llm_model_id: 'openai/gpt-4o-mini',
      default_params: {
        messages_template: [
          { role: 'system', content: expect.stringContaining('JSON') },
          { role: 'user', content: 'Q: {question}' },
        ],
        temperature: 0,
        max_tokens: 200,
        response_format: 'json',
      },
    });
    expect(fromModelValue('strict', value)).toEqual(form);
  });

  it('saves a judge as the reference LLMAsAJudgeScorer and reads it back', () => {
    const form = { name: 'helpful', modelRef: 'weave:///a/b/object/strict:abc', scoringPrompt: 'Rate {output}' };
    const value = toJudgeValue(form);
    expect(value).toMatchObject({ _class_name: 'LLMAsAJudgeScorer', _bases: ['Scorer', 'Object', 'BaseModel'], model: form.modelRef });
    expect(fromJudgeValue('helpful', value)).toEqual(form);
  });

  it('checks names and shows scores compactly', () => {
    expect(nameProblem('')).toMatch(/name/);
    expect(nameProblem('has space')).toMatch(/letters/);
    expect(nameProblem('ok-name_1')).toBeNull();
    expect(scoreText({ score: 4, reason: 'fine' })).toBe('4');
    expect(scoreText(true)).toBe('true');
    expect(scoreText(null)).toBe('–');
    expect(scoreText({ verdict: 'x'.repeat(60) })).toHaveLength(40);
  });
});
