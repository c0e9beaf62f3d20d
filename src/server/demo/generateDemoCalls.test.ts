import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallUpsertBatchReq, type EndedCall, type StartedCall } from '../../contract/calls.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { uploadDemoCalls } from './demoCommand.js';
import { generateDemoCalls } from './generateDemoCalls.js';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const WEEK = 7 * 24 * 60 * 60 * 1000;
const options = { projectId: 'demo/agents', traces: 300, seed: 7, now: NOW };
const items = generateDemoCalls(options);
const starts = items.flatMap((i) => (i.mode === 'start' ? [i.req.start as StartedCall & { id: string }] : []));
const ends = new Map(items.flatMap((i) => (i.mode === 'end' ? [[i.req.end.id, i.req.end as EndedCall]] : [])));
const byId = new Map(starts.map((s) => [s.id, s]));
const childrenOf = groupBy(starts, (s) => s.parent_id ?? '');
const roots = childrenOf.get('') ?? [];

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(list: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

function subtree(id: string): string[] {
  return [id, ...(childrenOf.get(id) ?? []).flatMap((c) => subtree(c.id))];
}

describe('generateDemoCalls', () => {
  it('is deterministic per seed, ids included', () => {
    expect(generateDemoCalls(options)).toEqual(items);
    expect(generateDemoCalls({ ...options, seed: 8 })).not.toEqual(items);
  });

  it('produces valid upsert_batch items, roots = traces, ids unique and UUIDv7-shaped', () => {
    expect(() => CallUpsertBatchReq.parse({ batch: items })).not.toThrow();
    expect(roots).toHaveLength(options.traces);
    expect(byId.size).toBe(starts.length);
    for (const s of starts) expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('links every child to a parent of the same trace that encloses it in time', () => {
    const position = new Map(items.map((item, i) => [item.mode === 'start' ? `s:${item.req.start.id}` : `e:${item.req.end.id}`, i]));
    for (const s of starts) {
      expect(position.get(`s:${s.id}`)!).toBeLessThan(position.get(`e:${s.id}`)!);
      if (!s.parent_id) continue;
      const parent = byId.get(s.parent_id)!;
      expect(parent.trace_id).toBe(s.trace_id);
      expect(position.get(`s:${parent.id}`)!).toBeLessThan(position.get(`s:${s.id}`)!);
      expect(Date.parse(parent.started_at)).toBeLessThan(Date.parse(s.started_at));
      expect(Date.parse(ends.get(s.id)!.ended_at)).toBeLessThan(Date.parse(ends.get(parent.id)!.ended_at));
    }
  });

  it('gives every start exactly one end, all within the 7 days before now', () => {
    expect(items.filter((i) => i.mode === 'end')).toHaveLength(starts.length);
    for (const s of starts) {
      expect(ends.has(s.id)).toBe(true);
      expect(Date.parse(s.started_at)).toBeGreaterThanOrEqual(NOW - WEEK);
      expect(Date.parse(ends.get(s.id)!.ended_at)).toBeLessThanOrEqual(NOW);
    }
  });

  it('builds agent traces of plan, LLM and tool calls with per-model usage', () => {
    const ops = new Set(starts.map((s) => s.op_name));
    expect([...ops].sort()).toEqual([
      'agent.run',
      'anthropic.messages.create',
      'openai.chat.completions.create',
      'plan',
      'tool.run_sql',
      'tool.search_web',
    ]);
    for (const root of roots) expect(root.op_name).toBe('agent.run');
    const openai = starts.filter((s) => s.op_name === 'openai.chat.completions.create' && !ends.get(s.id)!.exception);
    const roles = new Set(openai.flatMap((s) => (s.inputs!.messages as { role: string }[]).map((m) => m.role)));
    expect([...roles].sort()).toEqual(['assistant', 'system', 'tool', 'user']);
    const withToolCalls = openai.filter(
      (s) => (ends.get(s.id)!.output as { choices: { message: { tool_calls?: unknown } }[] }).choices[0]!.message.tool_calls,
    );
    expect(withToolCalls.length).toBeGreaterThan(0);
    for (const s of openai) {
      const usage = ends.get(s.id)!.summary!.usage![s.inputs!.model as string]!;
      expect(usage.total_tokens).toBe(usage.prompt_tokens! + usage.completion_tokens!);
      expect(usage.requests).toBe(1);
      const latency = Date.parse(ends.get(s.id)!.ended_at) - Date.parse(s.started_at);
      expect(latency).toBeGreaterThanOrEqual(300);
      expect(latency).toBeLessThanOrEqual(8100);
    }
    expect(starts.some((s) => s.display_name)).toBe(true);
  });

  it('makes conversations of 3 to 8 turns, each turn root its own turn_id', () => {
    const threads = groupBy(
      roots.filter((r) => r.thread_id),
      (r) => r.thread_id!,
    );
    expect(threads.size).toBeGreaterThan(3);
    for (const turns of threads.values()) {
      expect(turns.length).toBeGreaterThanOrEqual(3);
      expect(turns.length).toBeLessThanOrEqual(8);
      expect(new Set(turns.map((t) => (t.attributes as { user_id: string }).user_id)).size).toBe(1);
      for (const turn of turns) {
        expect(turn.turn_id).toBe(turn.id);
        for (const id of subtree(turn.id)) expect(byId.get(id)).toMatchObject({ thread_id: turn.thread_id, turn_id: turn.id });
      }
    }
    expect(roots.filter((r) => !r.thread_id).every((r) => r.turn_id == null)).toBe(true);
  });

  it('counts errors of the whole subtree in status_counts and sums usage upwards', () => {
    const failed = starts.filter((s) => ends.get(s.id)!.exception);
    expect(failed.length / starts.length).toBeGreaterThan(0.02);
    expect(failed.length / starts.length).toBeLessThan(0.09);
    expect(ends.get(failed[0]!.id)!.exception).toMatch(/^Traceback \(most recent call last\):\n/);
    for (const s of starts) {
      const ids = subtree(s.id);
      const errors = ids.filter((id) => ends.get(id)!.exception).length;
      expect(ends.get(s.id)!.summary!.status_counts).toEqual({ success: ids.length - errors, error: errors });
      const tokens = (id: string) => Object.values(ends.get(id)!.summary!.usage ?? {}).reduce((n, u) => n + u.total_tokens!, 0);
      const leaves = ids.filter((id) => !childrenOf.has(id));
      expect(tokens(s.id)).toBe(leaves.reduce((n, id) => n + tokens(id), 0));
    }
    // Both outcomes occur: errors that sink the whole trace, and errors the agent recovers from.
    expect(roots.some((r) => ends.get(r.id)!.exception)).toBe(true);
    expect(roots.some((r) => !ends.get(r.id)!.exception && ends.get(r.id)!.summary!.status_counts!.error! > 0)).toBe(true);
  });
});

describe('loading the demo into a server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores every call, queryable by /calls/query_stats and /calls/stream_query', async () => {
    const project_id = `${t.alice.entity}/demo`;
    const demo = generateDemoCalls({ projectId: project_id, traces: 40, seed: 3, now: NOW });
    const reported: number[] = [];
    await uploadDemoCalls(t.alice.client, demo, (done) => reported.push(done));
    const total = demo.filter((i) => i.mode === 'start').length;
    expect(reported.at(-1)).toBe(total);

    expect((await t.alice.client.callsQueryStats({ project_id })).count).toBe(total);
    expect((await t.alice.client.callsQueryStats({ project_id, filter: { trace_roots_only: true } })).count).toBe(40);
    const llm = { op_names: ['openai.chat.completions.create', 'anthropic.messages.create'] };
    const llmCount = demo.filter((i) => i.mode === 'start' && llm.op_names.includes(i.req.start.op_name)).length;
    expect((await t.alice.client.callsQueryStats({ project_id, filter: llm })).count).toBe(llmCount);

    const statuses = new Set<unknown>();
    for await (const call of t.alice.client.callsStreamQuery({ project_id, filter: { trace_roots_only: true } })) {
      statuses.add((call.summary?.weave as { status: string }).status);
      expect(call.ended_at).not.toBeNull();
    }
    expect(statuses.has('success')).toBe(true);
  });
});
