import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallUpsertBatchReq } from '../../contract/calls.js';
import type { ThreadSchema } from '../../contract/threads.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

type Item = z.input<typeof CallUpsertBatchReq>['batch'][number];

let t: TestServer;
const P = 'alice-co/threads';
const T0 = Date.UTC(2026, 0, 1);
const at = (sec: number) => new Date(T0 + sec * 1000).toISOString();

/** A call in thread `thread`; a turn when `turn` is true (turn_id = id), else nested under `parent`. */
function call(o: {
  id: string;
  thread: string;
  start: number;
  end?: number;
  turn?: boolean;
  parent?: string;
  error?: boolean;
  tokens?: number;
}): Item[] {
  const items: Item[] = [
    {
      mode: 'start',
      req: {
        start: {
          project_id: P,
          id: o.id,
          trace_id: `tr-${o.parent ?? o.id}`,
          parent_id: o.parent ?? null,
          op_name: o.turn ? 'turn' : 'llm',
          thread_id: o.thread,
          turn_id: o.turn ? o.id : (o.parent ?? null),
          started_at: at(o.start),
          inputs: { q: `in-${o.id}` },
        },
      },
    },
  ];
  if (o.end !== undefined) {
    items.push({
      mode: 'end',
      req: {
        end: {
          project_id: P,
          id: o.id,
          ended_at: at(o.end),
          output: `out-${o.id}`,
          exception: o.error ? 'boom' : null,
          summary: o.tokens ? { usage: { m: { prompt_tokens: o.tokens - 1, completion_tokens: 1 } } } : {},
        },
      },
    });
  }
  return items;
}

async function threads(req: Record<string, unknown> = {}): Promise<ThreadSchema[]> {
  const out: ThreadSchema[] = [];
  for await (const th of t.alice.client.threadsStreamQuery({ project_id: P, ...req })) out.push(th);
  return out;
}
const ids = (list: ThreadSchema[]) => list.map((x) => x.thread_id);

// Once per store backend: the dashboard's thread queries must answer the same on each.
for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      await t.alice.client.callUpsertBatch({
        batch: [
          // a: turns of 1 s, 2 s, 4 s, one unfinished turn, nested calls that never count.
          ...call({ id: 'a1', thread: 'a', turn: true, start: 0, end: 1, tokens: 10 }),
          ...call({ id: 'a1-llm', thread: 'a', parent: 'a1', start: 0, end: 900 }),
          ...call({ id: 'a2', thread: 'a', turn: true, start: 10, end: 12, error: true }),
          ...call({ id: 'a3', thread: 'a', turn: true, start: 20, end: 24, tokens: 5 }),
          ...call({ id: 'a4', thread: 'a', turn: true, start: 30 }),
          // b: one live turn of 10 s and one turn that will be deleted (with its child).
          ...call({ id: 'b1', thread: 'b', turn: true, start: 5, end: 15 }),
          ...call({ id: 'b2', thread: 'b', turn: true, start: 100, end: 1000 }),
          ...call({ id: 'b2-tool', thread: 'b', parent: 'b2', start: 101, end: 102 }),
          // c: two turns starting at the same instant (ties go to the smaller id), 3 s and 3 s.
          ...call({ id: 'c2', thread: 'c', turn: true, start: 40, end: 43 }),
          ...call({ id: 'c1', thread: 'c', turn: true, start: 40, end: 43 }),
          // d: only an unfinished turn.
          ...call({ id: 'd1', thread: 'd', turn: true, start: 2 }),
        ],
      });
      await t.alice.client.callsDelete({ project_id: P, call_ids: ['b2'] });
    });
    afterAll(async () => {
      await t.close();
    });

    describe('POST /threads/stream_query', () => {
      it('computes statistics from live turn calls only', async () => {
        const byId = new Map((await threads()).map((x) => [x.thread_id, x]));
        expect([...byId.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
        const a = byId.get('a')!;
        expect(a).toMatchObject({
          turn_count: 4,
          finished_turn_count: 3,
          start_time: at(0).replace('.000Z', 'Z'),
          last_updated: at(24).replace('.000Z', 'Z'),
          first_turn_id: 'a1',
          last_turn_id: 'a3',
          p50_turn_duration_ms: 2000,
          error_count: 1,
          total_tokens: 15,
          first_input_preview: '{"q":"in-a1"}',
          last_output_preview: '"out-a3"',
        });
        // sorted durations [1000, 2000, 4000]: position 0.99·2 = 1.98 → 2000 + 0.98·2000
        expect(a.p99_turn_duration_ms).toBeCloseTo(3960, 9);
        expect(byId.get('b')).toMatchObject({
          turn_count: 1,
          p50_turn_duration_ms: 10000,
          p99_turn_duration_ms: 10000,
          last_turn_id: 'b1',
          // One turn is both the first and the last: its start gives the input, its end the output.
          first_input_preview: '{"q":"in-b1"}',
          last_output_preview: '"out-b1"',
        });
        expect(byId.get('c')).toMatchObject({ turn_count: 2, first_turn_id: 'c1', last_turn_id: 'c1', p50_turn_duration_ms: 3000 });
        expect(byId.get('d')).toMatchObject({
          turn_count: 1,
          finished_turn_count: 0,
          // Never null (the reference's ThreadSchema requires it): no turn has ended, so the latest start.
          last_updated: at(2).replace('.000Z', 'Z'),
          last_turn_id: null,
          p50_turn_duration_ms: null,
          p99_turn_duration_ms: null,
        });
      });

      it('orders by last_updated desc by default (a thread without ended turns by its latest start)', async () => {
        expect(ids(await threads())).toEqual(['c', 'a', 'b', 'd']);
      });

      const cases: [string, string[]][] = [
        ['thread_id', ['a', 'b', 'c', 'd']],
        ['turn_count', ['b', 'd', 'c', 'a']],
        ['start_time', ['a', 'd', 'b', 'c']],
        ['last_updated', ['d', 'b', 'a', 'c']],
        ['p50_turn_duration_ms', ['d', 'a', 'c', 'b']],
        ['p99_turn_duration_ms', ['d', 'c', 'a', 'b']],
      ];
      for (const [field, ascending] of cases) {
        it(`sorts by ${field} in both directions`, async () => {
          expect(ids(await threads({ sort_by: [{ field, direction: 'asc' }] }))).toEqual(ascending);
          // Descending reverses every key but the thread_id tie-break, which stays ascending.
          const desc = ids(await threads({ sort_by: [{ field, direction: 'desc' }] }));
          expect(desc).toEqual(field === 'turn_count' ? ['a', 'c', 'b', 'd'] : [...ascending].reverse());
        });
      }

      it('applies several sort keys in order', async () => {
        const got = ids(
          await threads({
            sort_by: [
              { field: 'turn_count', direction: 'asc' },
              { field: 'start_time', direction: 'desc' },
            ],
          }),
        );
        expect(got).toEqual(['b', 'd', 'c', 'a']);
      });

      it('pages with limit and offset', async () => {
        const sort_by = [{ field: 'thread_id', direction: 'asc' }];
        expect(ids(await threads({ sort_by, limit: 2 }))).toEqual(['a', 'b']);
        expect(ids(await threads({ sort_by, limit: 2, offset: 2 }))).toEqual(['c', 'd']);
      });

      it('filters turns by start time with strict bounds, before grouping', async () => {
        // after 10 s excludes a1 and a2 (a2 starts exactly at the bound) and everything of b, d.
        const after = await threads({ filter: { after_datetime: at(10) }, sort_by: [{ field: 'thread_id', direction: 'asc' }] });
        expect(ids(after)).toEqual(['a', 'c']);
        expect(after[0]).toMatchObject({ turn_count: 2, first_turn_id: 'a3', p50_turn_duration_ms: 4000 });
        const before = await threads({ filter: { before_datetime: at(5) }, sort_by: [{ field: 'thread_id', direction: 'asc' }] });
        expect(ids(before)).toEqual(['a', 'd']);
        expect(before[0]).toMatchObject({ turn_count: 1, first_turn_id: 'a1' });
        const window = await threads({ filter: { after_datetime: at(0), before_datetime: at(40), thread_ids: ['a', 'b', 'c'] } });
        expect(ids(window).sort()).toEqual(['a', 'b']);
      });

      it('filters by thread ids', async () => {
        expect(ids(await threads({ filter: { thread_ids: ['b', 'zzz', 'c'] } })).sort()).toEqual(['b', 'c']);
      });

      it('keeps statistics right under late ends, early ends and deletes', async () => {
        const e = (id: string, end: number) => ({
          mode: 'end' as const,
          req: { end: { project_id: P, id, ended_at: at(end), summary: {} } },
        });
        // The end of e1 arrives before its start; d1 (unfinished) gets its end late.
        await t.alice.client.callUpsertBatch({ batch: [e('e1', 207), e('d1', 4)] });
        expect(ids(await threads({ filter: { thread_ids: ['e'] } }))).toEqual([]);
        await t.alice.client.callUpsertBatch({ batch: call({ id: 'e1', thread: 'e', turn: true, start: 200 }) });
        const [th] = await threads({ filter: { thread_ids: ['e'] } });
        expect(th).toMatchObject({ turn_count: 1, p50_turn_duration_ms: 7000 });
        const [d] = await threads({ filter: { thread_ids: ['d'] } });
        expect(d).toMatchObject({ finished_turn_count: 1, p99_turn_duration_ms: 2000, last_turn_id: 'd1' });
        await t.alice.client.callsDelete({ project_id: P, call_ids: ['e1'] });
        expect(await threads({ filter: { thread_ids: ['e'] } })).toEqual([]);
      });

      it('answers 422 for a missing project_id and names a bad sort field or direction', async () => {
        const missing = await t.fetch('/threads/stream_query', { json: {} });
        expect(missing.status).toBe(422);
        expect((await missing.json()).detail[0]).toMatchObject({ loc: ['body', 'project_id'], type: 'missing' });
        const bad = await t.fetch('/threads/stream_query', {
          json: { project_id: P, sort_by: [{ field: 'tokens', direction: 'sideways' }] },
        });
        expect(bad.status).toBe(422);
        const locs = (await bad.json()).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
        expect(locs).toEqual(['body.sort_by.0.field', 'body.sort_by.0.direction']);
      });

      it('answers 401 without or with bad credentials, 403 for another entity', async () => {
        const none = await fetch(`${t.url}/threads/stream_query`, { method: 'POST', body: JSON.stringify({ project_id: P }) });
        expect(none.status).toBe(401);
        expect(none.headers.get('www-authenticate')).toBeNull();
        const wrong = await t.fetch('/threads/stream_query', {
          json: { project_id: P },
          headers: { authorization: `Basic ${btoa('alice:nope')}` },
        });
        expect(wrong.status).toBe(401);
        const other = await t.fetch('/threads/stream_query', { json: { project_id: P }, headers: { authorization: t.bob.authHeader } });
        expect(other.status).toBe(403);
      });

      it('streams one JSON object per line', async () => {
        const res = await t.fetch('/threads/stream_query', { json: { project_id: P } });
        expect(res.headers.get('content-type')).toContain('application/jsonl');
        const lines = (await res.text()).split('\n');
        expect(lines.at(-1)).toBe('');
        expect(
          lines
            .slice(0, -1)
            .map((l) => JSON.parse(l).thread_id)
            .sort(),
        ).toEqual(['a', 'b', 'c', 'd']);
      });
    });
  });
}
