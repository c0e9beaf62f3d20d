import { describe, expect, it } from 'vitest';
import type { Call } from '../../entities/calls/callFields.js';
import { traceUsage } from './traceUsage.js';

/** Per-model counts as the server publishes them in `summary.weave.model_tokens`. */
type Tokens = Record<string, { input_tokens: number; output_tokens: number; total_tokens: number; requests: number }>;

function call(id: string, parent: string | null, tokens: Tokens, costs: Record<string, number> = {}): Call {
  const weaveCosts = Object.fromEntries(
    Object.entries(costs).map(([m, c]) => [m, { prompt_tokens_total_cost: c / 2, completion_tokens_total_cost: c / 2 }]),
  );
  return {
    id,
    project_id: 'e/p',
    op_name: id,
    display_name: null,
    trace_id: 't',
    parent_id: parent,
    thread_id: null,
    turn_id: null,
    started_at: '2025-01-01T00:00:00Z',
    ended_at: '2025-01-01T00:00:01Z',
    attributes: {},
    inputs: {},
    output: null,
    exception: null,
    summary: {
      weave: {
        ...(Object.keys(tokens).length ? { total_tokens: 0, model_tokens: tokens } : {}),
        ...(Object.keys(costs).length ? { costs: weaveCosts } : {}),
      },
    },
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
  };
}

const tok = (input: number, output: number, requests = 1) => ({
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
  requests,
});
const gpt = (input: number, output: number) => tok(input, output);

describe('traceUsage', () => {
  it('counts rolled-up usage once: the deepest call of each model wins', () => {
    // As the SDKs write it: the root and the agent repeat their descendants' sums.
    const calls = [
      call('root', null, { gpt: tok(30, 12, 2), claude: tok(5, 5) }, { gpt: 0.3, claude: 1 }),
      call('agent', 'root', { gpt: tok(30, 12, 2) }, { gpt: 0.3 }),
      call('llm1', 'agent', { gpt: gpt(10, 4) }, { gpt: 0.1 }),
      call('llm2', 'agent', { gpt: gpt(20, 8) }, { gpt: 0.2 }),
    ];
    const { models, total } = traceUsage(calls);
    // claude is only on the root (its LLM call was not logged): the root's own figure counts.
    expect(models).toEqual([
      { model: 'gpt', requests: 2, prompt: 30, completion: 12, total: 42, cost: expect.closeTo(0.3, 10) },
      { model: 'claude', requests: 1, prompt: 5, completion: 5, total: 10, cost: 1 },
    ]);
    expect(total).toMatchObject({ requests: 3, prompt: 35, completion: 17, total: 52 });
    expect(total.cost).toBeCloseTo(1.3, 10);
  });

  it('adds up usage that was not rolled up, and leaves cost null without prices', () => {
    const { models, total } = traceUsage([
      call('root', null, {}),
      call('a', 'root', { m: gpt(1, 2) }),
      call('b', 'root', { m: { ...gpt(3, 4), total_tokens: 9 } }),
    ]);
    expect(models).toEqual([{ model: 'm', requests: 2, prompt: 4, completion: 6, total: 12, cost: null }]);
    expect(total.cost).toBeNull();
  });

  it('survives parents that are not loaded and parent cycles', () => {
    const { total } = traceUsage([
      call('x', 'missing', { m: gpt(1, 1) }),
      call('p', 'q', { m: gpt(1, 1) }),
      call('q', 'p', { m: gpt(1, 1) }),
    ]);
    expect(total.prompt).toBe(1);
  });

  it('is empty for traces without usage', () => {
    expect(traceUsage([call('root', null, {})]).models).toEqual([]);
  });
});
