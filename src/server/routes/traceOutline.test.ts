/**
 * `/weft/trace/outline` on every backend: the tree's shape and order, rollups per subtree
 * (tokens and cost counting each model's deepest usage once), no payloads, limits, project
 * access; `/weft/trace/outline_stream` answering the same spans as lines, a large trace's first
 * levels first; and `/calls/stream_query` still answering a 10,000-call trace in the reference's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CallSchema, type CallUpsertBatchReq } from '../../contract/calls.js';
import { OUTLINE_OPEN_DEPTH, type OutlineSpan, type TraceOutlineHead, type TraceOutlineReq } from '../../contract/traceOutline.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

type Item = z.input<typeof CallUpsertBatchReq>['batch'][number];

let t: TestServer;
const P = 'alice-co/outline';
const T0 = Date.UTC(2026, 0, 1);
const at = (sec: number) => new Date(T0 + sec * 1000).toISOString();
/** Times as the wire writes them. */
const wire = (sec: number) => at(sec).replace('.000Z', 'Z');
const SECRET = 'PAYLOAD-THAT-MUST-NOT-TRAVEL';

/** A call of `trace`; ended at `end` unless that is null (still running). */
function span(o: {
  id: string;
  trace: string;
  parent?: string;
  start: number;
  end: number | null;
  usage?: Record<string, Record<string, number>>;
  error?: string;
  statusCounts?: Record<string, number>;
  project?: string;
}): Item[] {
  const project = o.project ?? P;
  const items: Item[] = [
    {
      mode: 'start',
      req: {
        start: {
          project_id: project,
          id: o.id,
          trace_id: o.trace,
          parent_id: o.parent ?? null,
          op_name: `weave:///${project}/op/${o.id}_op:abc`,
          started_at: at(o.start),
          inputs: { prompt: SECRET },
          attributes: {},
        },
      },
    },
  ];
  if (o.end !== null) {
    const summary: Record<string, unknown> = {};
    if (o.usage) summary.usage = o.usage;
    if (o.statusCounts) summary.status_counts = o.statusCounts;
    items.push({
      mode: 'end',
      req: {
        end: { project_id: project, id: o.id, ended_at: at(o.end), output: { text: SECRET }, exception: o.error ?? null, summary },
      },
    });
  }
  return items;
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const gpt = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, requests: 1 });

const outline = (projectId: string, traceId: string, limit?: number) =>
  t.alice.client.traceOutline({ project_id: projectId, trace_id: traceId, ...(limit ? { limit } : {}) });

/** The streamed outline: its head line and its spans, in the order they came. */
async function streamed(req: TraceOutlineReq): Promise<{ head: TraceOutlineHead; spans: OutlineSpan[] }> {
  const lines = [];
  for await (const line of t.alice.client.traceOutlineStream(req)) lines.push(line);
  const [first, ...rest] = lines;
  if (!first || !('head' in first)) throw new Error(`The first line is not the head: ${JSON.stringify(first)}`);
  if (rest.some((l) => 'head' in l)) throw new Error('A second head line');
  return { head: first.head, spans: rest as OutlineSpan[] };
}

for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      await t.alice.client.costCreate({
        project_id: P,
        costs: { 'gpt-4o': { prompt_token_cost: 0.5, completion_token_cost: 1, effective_date: at(-100) } },
      });
      // r ─┬─ a (LLM)
      //    ├─ b (raised) ── c (LLM: gpt-4o and claude-x)
      //    └─ d (running)
      // r carries its children's gpt-4o usage rolled up, as the SDKs write it.
      await t.alice.client.callUpsertBatch({
        batch: [
          ...span({ id: 'r', trace: 't1', start: 0, end: 10, usage: { 'gpt-4o': gpt(20, 10) }, statusCounts: { success: 3, error: 1 } }),
          ...span({ id: 'a', trace: 't1', parent: 'r', start: 1, end: 2, usage: { 'gpt-4o': gpt(10, 5) } }),
          ...span({ id: 'b', trace: 't1', parent: 'r', start: 3, end: 6, error: 'ValueError: boom' }),
          ...span({
            id: 'c',
            trace: 't1',
            parent: 'b',
            start: 4,
            end: 5,
            usage: { 'gpt-4o': gpt(10, 5), 'claude-x': { input_tokens: 3, output_tokens: 4 } },
          }),
          ...span({ id: 'd', trace: 't1', parent: 'r', start: 7, end: null }),
          // t2: a parent from elsewhere, and two calls naming each other as parent.
          ...span({ id: 'orphan', trace: 't2', parent: 'not-in-this-trace', start: 0, end: 1 }),
          ...span({ id: 'x', trace: 't2', parent: 'y', start: 2, end: 3 }),
          ...span({ id: 'y', trace: 't2', parent: 'x', start: 4, end: 5 }),
        ],
      });
    });
    afterAll(() => t.close());

    it('answers the tree depth first with status, timing and its own usage, and no payload', async () => {
      const res = await outline(P, 't1');
      expect(res.trace_id).toBe('t1');
      expect(res.truncated).toBe(false);
      expect(res.spans.map((s) => [s.id, s.parent_id])).toEqual([
        ['r', null],
        ['a', 'r'],
        ['b', 'r'],
        ['c', 'b'],
        ['d', 'r'],
      ]);
      const byId = new Map(res.spans.map((s) => [s.id, s]));
      expect(byId.get('b')).toMatchObject<Partial<OutlineSpan>>({
        op_name: `weave:///${P}/op/b_op:abc`,
        display_name: null,
        status: 'error',
        error: true,
        started_at: wire(3),
        ended_at: wire(6),
        latency_ms: 3000,
        tokens: null,
        cost: null,
      });
      expect(byId.get('r')).toMatchObject({ status: 'descendant_error', error: false, tokens: 30, cost: 20 });
      expect(byId.get('c')).toMatchObject({ status: 'success', tokens: 22, cost: 10 });
      expect(byId.get('d')).toMatchObject({ status: 'running', ended_at: null, latency_ms: null });
      expect(JSON.stringify(res)).not.toContain(SECRET);
    });

    it('rolls up each subtree, counting a model only where it was used deepest', async () => {
      const res = await outline(P, 't1');
      const rollup = Object.fromEntries(res.spans.map((s) => [s.id, s.rollup]));
      // r's own 30 gpt-4o tokens are its children's, rolled up by the SDK: counted once, below.
      expect(rollup.r).toEqual({ descendants: 4, errors: 1, tokens: 15 + 22, cost: 20 });
      expect(rollup.b).toEqual({ descendants: 1, errors: 1, tokens: 22, cost: 10 });
      expect(rollup.a).toEqual({ descendants: 0, errors: 0, tokens: 15, cost: 10 });
      expect(rollup.d).toEqual({ descendants: 0, errors: 0, tokens: 0, cost: null });
      expect(res.models).toEqual([
        { model: 'gpt-4o', requests: 2, prompt_tokens: 20, completion_tokens: 10, total_tokens: 30, cost: 20 },
        { model: 'claude-x', requests: 0, prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, cost: null },
      ]);
    });

    it('makes roots of spans whose parent is elsewhere, and cuts parent cycles', async () => {
      const res = await outline(P, 't2');
      expect(res.spans.map((s) => [s.id, s.parent_id])).toEqual([
        ['orphan', null],
        ['x', null],
        ['y', 'x'],
      ]);
      expect(res.spans.find((s) => s.id === 'x')!.rollup.descendants).toBe(1);
    });

    it('answers the first spans and says so past the limit; nothing for an unknown trace', async () => {
      const res = await outline(P, 't1', 2);
      expect(res.truncated).toBe(true);
      expect(res.spans.map((s) => s.id)).toEqual(['r', 'a']);
      expect(await outline(P, 'no-such-trace')).toEqual({ trace_id: 'no-such-trace', spans: [], truncated: false, models: [] });
    });

    it('streams the same outline as lines: the head, then the spans in the same order', async () => {
      const whole = await outline(P, 't1');
      const { head, spans } = await streamed({ project_id: P, trace_id: 't1' });
      expect(head).toEqual({ trace_id: 't1', spans: 5, truncated: false, models: whole.models });
      expect(spans).toEqual(whole.spans);
      const cut = await streamed({ project_id: P, trace_id: 't1', limit: 2 });
      expect(cut.head).toMatchObject({ spans: 2, truncated: true });
      expect(cut.spans.map((s) => s.id)).toEqual(['r', 'a']);
      expect(await streamed({ project_id: P, trace_id: 'no-such-trace' })).toEqual({
        head: { trace_id: 'no-such-trace', spans: 0, truncated: false, models: [] },
        spans: [],
      });
    });

    it('streams a large trace’s first levels first, every parent before its children', async () => {
      // root ── 3 steps ── 200 calls each; the first call of each step has 2 calls below it
      // (depth 3: hidden when the tree opens). 610 spans, over the large-trace size.
      const LARGE = 'alice-co/outline-large';
      const batch: Item[] = [];
      const add = (o: { id: string; parent?: string; start: number }) =>
        batch.push(...span({ ...o, trace: 'deep', end: o.start + 1, project: LARGE }));
      add({ id: 'root', start: 0 });
      for (let s = 0; s < 3; s++) {
        add({ id: `s${s}`, parent: 'root', start: 1 + s * 1000 });
        for (let c = 0; c < 200; c++) {
          add({ id: `s${s}c${c}`, parent: `s${s}`, start: 2 + s * 1000 + c * 2 });
          if (c === 0) for (let g = 0; g < 2; g++) add({ id: `s${s}c0g${g}`, parent: `s${s}c0`, start: 3 + s * 1000 + g });
        }
      }
      await t.alice.client.callUpsertBatch({ batch });

      const whole = await outline(LARGE, 'deep');
      const { head, spans } = await streamed({ project_id: LARGE, trace_id: 'deep' });
      expect(head.spans).toBe(610);
      expect(spans).toHaveLength(610);
      const depthOf = new Map<string, number>();
      for (const s of whole.spans) depthOf.set(s.id, s.parent_id === null ? 0 : depthOf.get(s.parent_id)! + 1);
      const shown = whole.spans.filter((s) => depthOf.get(s.id)! <= OUTLINE_OPEN_DEPTH);
      const hidden = whole.spans.filter((s) => depthOf.get(s.id)! > OUTLINE_OPEN_DEPTH);
      expect(hidden.map((s) => s.id)).toEqual(['s0c0g0', 's0c0g1', 's1c0g0', 's1c0g1', 's2c0g0', 's2c0g1']);
      // The rows the opened tree shows, in its order, then the rest depth first: the same spans.
      expect(spans).toEqual([...shown, ...hidden]);
      expect(spans.find((s) => s.id === 's0c0')!.rollup.descendants).toBe(2);
    });

    it('refuses a missing trace id with 422 and another entity’s project with 403', async () => {
      const bad = await t.fetch('/weft/trace/outline', { method: 'POST', json: { project_id: P, trace_id: '' } });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(await bad.json())).toContain('trace_id');
      await expect(t.bob.client.traceOutline({ project_id: P, trace_id: 't1' })).rejects.toMatchObject({ status: 403 });
      const badStream = await t.fetch('/weft/trace/outline_stream', { method: 'POST', json: { project_id: P, trace_id: '' } });
      expect(badStream.status).toBe(422);
      await expect(collect(t.bob.client.traceOutlineStream({ project_id: P, trace_id: 't1' }))).rejects.toMatchObject({ status: 403 });
    });

    it('outlines a 10,000-span trace, and /calls/stream_query still answers it in the reference shape', async () => {
      const BIG = 'alice-co/outline-big';
      const N = 10_000;
      const ids = Array.from({ length: N }, (_, i) => `s${String(i).padStart(5, '0')}`);
      for (let from = 0; from < N; from += 2000) {
        const batch: Item[] = [];
        for (let i = from; i < Math.min(N, from + 2000); i++) {
          // A root, 99 agents under it, and every other span under an agent.
          const parent = i === 0 ? null : i < 100 ? ids[0]! : ids[1 + (i % 99)]!;
          const start = { project_id: BIG, id: ids[i]!, trace_id: 'big', parent_id: parent, op_name: 'step', started_at: at(i) };
          batch.push({ mode: 'start', req: { start: { ...start, inputs: { i }, attributes: {} } } });
          batch.push({ mode: 'end', req: { end: { project_id: BIG, id: ids[i]!, ended_at: at(i + 1), output: i, summary: {} } } });
        }
        await t.alice.client.callUpsertBatch({ batch });
      }
      const res = await outline(BIG, 'big');
      expect(res.spans).toHaveLength(N);
      expect(res.spans[0]!.rollup.descendants).toBe(N - 1);
      expect(res.spans[1]).toMatchObject({ id: 's00001', parent_id: 's00000' });

      const calls: CallSchema[] = [];
      for await (const call of t.alice.client.callsStreamQuery({ project_id: BIG, filter: { trace_ids: ['big'] } })) calls.push(call);
      expect(calls).toHaveLength(N);
      const keys = Object.keys(CallSchema.shape).filter(
        (k) => !['wb_username', 'storage_size_bytes', 'total_storage_size_bytes'].includes(k),
      );
      for (const call of calls) {
        expect(CallSchema.strict().safeParse(call).success).toBe(true);
        expect(Object.keys(call)).toEqual(expect.arrayContaining(keys));
      }
      expect(new Set(calls.map((c) => c.id)).size).toBe(N);
      expect(calls.find((c) => c.id === 's05000')).toMatchObject({ inputs: { i: 5000 }, output: 5000, parent_id: 's00051' });
    });
  });
}
