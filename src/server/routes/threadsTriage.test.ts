/**
 * Weft's thread triage extensions: content search, range and attribute filters, sorts on
 * errors/tokens/cost, and the exact count (`/threads/query_stats`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallUpsertBatchReq } from '../../contract/calls.js';
import type { ThreadSchema } from '../../contract/threads.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

type Item = z.input<typeof CallUpsertBatchReq>['batch'][number];

let t: TestServer;
const P = 'alice-co/triage';
const T0 = Date.UTC(2026, 0, 1);
const at = (sec: number) => new Date(T0 + sec * 1000).toISOString();

/** A finished turn of `thread` (or a nested call under `parent`). */
function turn(o: {
  id: string;
  thread: string;
  start: number;
  end: number;
  input: unknown;
  output: unknown;
  model?: string;
  tokens?: [number, number];
  error?: boolean;
  attributes?: Record<string, unknown>;
  parent?: string;
}): Item[] {
  return [
    {
      mode: 'start',
      req: {
        start: {
          project_id: P,
          id: o.id,
          trace_id: `tr-${o.parent ?? o.id}`,
          parent_id: o.parent ?? null,
          op_name: 'chat',
          thread_id: o.thread,
          turn_id: o.parent ?? o.id,
          started_at: at(o.start),
          inputs: o.input as Record<string, unknown>,
          attributes: o.attributes ?? {},
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: P,
          id: o.id,
          ended_at: at(o.end),
          output: o.output,
          exception: o.error ? 'boom' : null,
          summary: o.tokens
            ? { usage: { [o.model ?? 'triage-model']: { prompt_tokens: o.tokens[0], completion_tokens: o.tokens[1] } } }
            : {},
        },
      },
    },
  ];
}

async function threads(req: Record<string, unknown> = {}): Promise<ThreadSchema[]> {
  const out: ThreadSchema[] = [];
  for await (const th of t.alice.client.threadsStreamQuery({ project_id: P, ...req })) out.push(th);
  return out;
}
const ids = (list: ThreadSchema[]) => list.map((x) => x.thread_id);
const sorted = async (filter: Record<string, unknown>) =>
  ids(await threads({ filter, sort_by: [{ field: 'thread_id', direction: 'asc' }] }));
const count = async (filter: Record<string, unknown> | null) => (await t.alice.client.threadsQueryStats({ project_id: P, filter })).count;

// Once per store backend: the dashboard's thread queries must answer the same on each.
for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      // $1 per 1M prompt tokens, $2 per 1M completion tokens (per token: 1e-6 and 2e-6).
      await t.alice.client.costCreate({
        project_id: P,
        costs: { 'triage-model': { prompt_token_cost: 1e-6, completion_token_cost: 2e-6, effective_date: at(-100) } },
      });
      await t.alice.client.callUpsertBatch({
        batch: [
          ...turn({
            id: 'r1',
            thread: 'refunds',
            start: 0,
            end: 2,
            input: { messages: [{ role: 'user', content: 'I want a REFUND for my order' }] },
            output: { content: 'Sure, your refund is on its way' },
            tokens: [1000, 500],
            attributes: { env: 'prod', tier: 3 },
          }),
          ...turn({
            id: 'r2',
            thread: 'refunds',
            start: 10,
            end: 20,
            input: { q: 'Thanks!' },
            output: 'Café au lait',
            tokens: [100, 50],
            error: true,
          }),
          // Nested calls never make a thread match: their text is not a turn's.
          ...turn({ id: 'r2-tool', thread: 'refunds', parent: 'r2', start: 11, end: 12, input: { q: 'zebra' }, output: 'x' }),
          ...turn({
            id: 's1',
            thread: 'shipping',
            start: 5,
            end: 6,
            input: { q: 'Where is my parcel?' },
            output: 'In transit',
            tokens: [10, 10],
          }),
          ...turn({
            id: 'q1',
            thread: 'quiet',
            start: 30,
            end: 31,
            input: { q: 'hello' },
            output: 'hi',
            model: 'unpriced-model',
            tokens: [5000, 5000],
            attributes: { env: 'dev' },
          }),
        ],
      });
    });
    afterAll(async () => {
      await t.close();
    });

    describe('POST /threads/stream_query (Weft filters)', () => {
      it("finds threads by words in their turns' inputs and outputs, case- and accent-insensitive, as prefixes", async () => {
        expect(await sorted({ search: 'refund' })).toEqual(['refunds']);
        expect(await sorted({ search: 'refu ORDER' })).toEqual(['refunds']);
        expect(await sorted({ search: 'cafe' })).toEqual(['refunds']);
        expect(await sorted({ search: 'my' })).toEqual(['refunds', 'shipping']);
        expect(await sorted({ search: 'refund parcel' })).toEqual([]);
        // Not a nested call's text. A turn's JSON keys match by the substring rule, which reads
        // the stored JSON text (docs/search.md "What a search matches").
        expect(await sorted({ search: 'zebra' })).toEqual([]);
        expect(await sorted({ search: 'messages' })).toEqual(['refunds']);
      });

      it('treats FTS syntax as plain words and also matches an exact thread id', async () => {
        expect(await sorted({ search: '"refund" OR NEAR(' })).toEqual([]);
        expect(await sorted({ search: 'quiet' })).toEqual(['quiet']);
        expect(await sorted({ search: '?!' })).toEqual([]);
      });

      it('keeps the index current when a turn is deleted', async () => {
        await t.alice.client.callUpsertBatch({
          batch: turn({ id: 'g1', thread: 'gone', start: 40, end: 41, input: { q: 'ephemeral words' }, output: 'ok' }),
        });
        expect(await sorted({ search: 'ephemeral' })).toEqual(['gone']);
        await t.alice.client.callsDelete({ project_id: P, call_ids: ['g1'] });
        expect(await sorted({ search: 'ephemeral' })).toEqual([]);
      });

      it('bounds statistics inclusively: errors, turns, durations, tokens, cost', async () => {
        expect(await sorted({ min: { error_count: 1 } })).toEqual(['refunds']);
        expect(await sorted({ min: { turn_count: 2 } })).toEqual(['refunds']);
        expect(await sorted({ max: { turn_count: 1 } })).toEqual(['quiet', 'shipping']);
        expect(await sorted({ min: { p99_turn_duration_ms: 9000 } })).toEqual(['refunds']);
        expect(await sorted({ max: { p50_turn_duration_ms: 1000 } })).toEqual(['quiet', 'shipping']);
        expect(await sorted({ min: { total_tokens: 1650 }, max: { total_tokens: 1650 } })).toEqual(['refunds']);
        // refunds: 1100 prompt × 1e-6 + 550 completion × 2e-6 = 0.0022; shipping 0.00003; quiet unpriced.
        expect(await sorted({ min: { total_cost: 0.001 } })).toEqual(['refunds']);
        expect(await sorted({ max: { total_cost: 0.001 } })).toEqual(['shipping']);
      });

      it('filters by the attributes of any turn', async () => {
        expect(await sorted({ attributes: { env: 'prod' } })).toEqual(['refunds']);
        expect(await sorted({ attributes: { env: 'prod', tier: 3 } })).toEqual(['refunds']);
        expect(await sorted({ attributes: { env: 'prod', tier: 4 } })).toEqual([]);
        expect(await sorted({ attributes: { env: 'dev' } })).toEqual(['quiet']);
      });

      it('combines Weft filters with a date filter (statistics of the turns in range)', async () => {
        expect(await sorted({ after_datetime: at(4), search: 'thanks' })).toEqual(['refunds']);
        expect(await sorted({ after_datetime: at(4), min: { error_count: 1 } })).toEqual(['refunds']);
        // After 4 s only r2 of refunds is in range: 150 tokens.
        expect(await sorted({ after_datetime: at(4), max: { total_tokens: 200 } })).toEqual(['refunds', 'shipping']);
        const [r] = await threads({ filter: { after_datetime: at(4), thread_ids: ['refunds'] } });
        expect(r!.total_cost).toBeCloseTo(100e-6 + 50 * 2e-6, 12);
      });

      it('reports cost per thread, null when no model has a price', async () => {
        const byId = new Map((await threads()).map((x) => [x.thread_id, x]));
        expect(byId.get('refunds')!.total_cost).toBeCloseTo(0.0022, 12);
        expect(byId.get('shipping')!.total_cost).toBeCloseTo(30e-6, 12);
        expect(byId.get('quiet')!.total_cost).toBeNull();
      });

      it('sorts by errors, tokens and cost on the server, with or without a date filter', async () => {
        const by = (field: string, direction: string, filter: Record<string, unknown> | null = null) =>
          threads({ filter, sort_by: [{ field, direction }] }).then(ids);
        expect(await by('error_count', 'desc')).toEqual(['refunds', 'quiet', 'shipping']);
        expect(await by('total_tokens', 'desc')).toEqual(['quiet', 'refunds', 'shipping']);
        expect(await by('total_tokens', 'asc')).toEqual(['shipping', 'refunds', 'quiet']);
        // Unpriced sorts lowest (last when descending), as NULLs do for the other statistics.
        expect(await by('total_cost', 'desc')).toEqual(['refunds', 'shipping', 'quiet']);
        expect(await by('total_cost', 'asc')).toEqual(['quiet', 'shipping', 'refunds']);
        const since = { after_datetime: at(-1) };
        expect(await by('total_cost', 'desc', since)).toEqual(['refunds', 'shipping', 'quiet']);
        expect(await by('error_count', 'desc', since)).toEqual(['refunds', 'quiet', 'shipping']);
      });

      it('answers 422 for an unknown range field', async () => {
        const res = await t.fetch('/threads/stream_query', { json: { project_id: P, filter: { min: { colour: 1 } } } });
        expect(res.status).toBe(422);
      });
    });

    describe('POST /threads/query_stats', () => {
      it('counts exactly what the list would show', async () => {
        expect(await count(null)).toBe(3);
        expect(await count({ search: 'my' })).toBe(2);
        expect(await count({ min: { error_count: 1 } })).toBe(1);
        expect(await count({ after_datetime: at(4) })).toBe(3);
        expect(await count({ after_datetime: at(4), max: { total_tokens: 200 } })).toBe(2);
        expect(await count({ thread_ids: ['refunds', 'nope'] })).toBe(1);
      });

      it('checks credentials and project access', async () => {
        const none = await fetch(`${t.url}/threads/query_stats`, { method: 'POST', body: JSON.stringify({ project_id: P }) });
        expect(none.status).toBe(401);
        const other = await t.fetch('/threads/query_stats', { json: { project_id: P }, headers: { authorization: t.bob.authHeader } });
        expect(other.status).toBe(403);
      });
    });
  });
}
