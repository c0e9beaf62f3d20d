/**
 * Retention over HTTP on a real server with a fixed clock (docs/operations/retention.md): rules
 * through `/weft/retention`, one sweep, and every read of the project compared with a project
 * that never held the expired calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallUpsertBatchReq } from '../../contract/calls.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

type Item = z.input<typeof CallUpsertBatchReq>['batch'][number];

const DAY_MS = 86_400_000;
const NOW_MS = Date.UTC(2026, 1, 15, 12);
const clock = { nowMicros: () => NOW_MS * 1000 };
let t: TestServer;

const ago = (days: number, sec = 0) => new Date(NOW_MS - days * DAY_MS + sec * 1000).toISOString();

/** A call started `days` ago (plus `sec`), ended a second later; a turn of `thread` when given. */
function call(
  project: string,
  id: string,
  days: number,
  o: { sec?: number; thread?: string; parent?: string; tokens?: number } = {},
): Item[] {
  const sec = o.sec ?? 0;
  return [
    {
      mode: 'start',
      req: {
        start: {
          project_id: project,
          id,
          trace_id: `tr-${o.parent ?? id}`,
          parent_id: o.parent ?? null,
          op_name: o.thread ? 'turn' : 'llm',
          thread_id: o.thread ?? null,
          turn_id: o.thread && !o.parent ? id : null,
          started_at: ago(days, sec),
          inputs: { q: `in-${id}` },
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: project,
          id,
          ended_at: ago(days, sec + 1 + (id.length % 3)),
          output: `out-${id}`,
          exception: id.endsWith('x') ? 'boom' : null,
          summary: { usage: { 'gpt-4o': { prompt_tokens: o.tokens ?? 10, completion_tokens: 2, requests: 1 } } },
        },
      },
    },
  ];
}

const write = (items: Item[]) => t.alice.client.callUpsertBatch({ batch: items });

/** Calls both projects get: recent ones, a thread that also had old turns, errors, usage. */
const recentCalls = (p: string): Item[] => [
  ...call(p, 'r1', 1, { thread: 'th-mixed', tokens: 7 }),
  ...call(p, 'r2x', 2, { thread: 'th-new' }),
  ...call(p, 'r2-child', 2, { sec: 1, parent: 'r2x', tokens: 5 }),
  ...call(p, 'r3', 29, { thread: 'th-mixed', tokens: 3 }),
  ...call(p, 'r4', 10),
];
/** Only the swept project gets these: older than a 30-day window. */
const oldCalls = (p: string): Item[] => [
  ...call(p, 'o1', 31, { thread: 'th-mixed', tokens: 100 }),
  ...call(p, 'o2x', 45, { thread: 'th-old' }),
  ...call(p, 'o2-child', 45, { sec: 1, parent: 'o2x' }),
  ...call(p, 'o3', 60),
];

async function lines(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return res.text();
}

/** Every read the issue lists, as text with the project id taken out, so two projects compare. */
async function everyRead(s: TestServer, project: string): Promise<Record<string, unknown>> {
  const post = async (path: string, json: unknown) => {
    const res = await s.fetch(path, { json });
    const text = await lines(res);
    return text.replaceAll(project, 'P');
  };
  const window = { start: ago(90), end: ago(0) };
  return {
    calls: await post('/calls/stream_query', { project_id: project, sort_by: [{ field: 'started_at', direction: 'asc' }] }),
    count: await post('/calls/query_stats', { project_id: project }),
    threads: await post('/threads/stream_query', { project_id: project, sort_by: [{ field: 'thread_id', direction: 'asc' }] }),
    stats: await post('/calls/stats', {
      project_id: project,
      ...window,
      granularity: 86_400,
      call_metrics: [
        { metric: 'latency_ms', aggregations: ['sum', 'min', 'max', 'count'], percentiles: [50] },
        { metric: 'call_count' },
        { metric: 'error_count' },
      ],
      usage_metrics: [{ metric: 'input_tokens' }, { metric: 'total_tokens' }],
    }),
    statsHourly: await post('/calls/stats', {
      project_id: project,
      ...window,
      granularity: 3600,
      call_metrics: [{ metric: 'call_count' }],
    }),
    export: await post('/weft/calls/export', { project_id: project }),
  };
}

const callIds = async (project: string): Promise<string[]> => {
  const ids: string[] = [];
  for await (const c of t.alice.client.callsStreamQuery({ project_id: project, columns: ['id'] })) ids.push(c.id);
  return ids.sort();
};

// Once per store backend: SQLite deletes in batches, ClickHouse hides and hands rows to TTL; reads must agree.
for (const backend of testBackends()) {
  describe(`retention (${backend.name})`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv, clock });
    });
    afterAll(() => t?.close());

    it('removes calls older than the window from every read in one sweep, and the rest reads as if they were never written', async () => {
      const swept = 'alice-co/ret-swept';
      const control = 'alice-co/ret-control';
      await write([...oldCalls(swept), ...recentCalls(swept)]);
      await write(recentCalls(control));
      await t.alice.client.feedbackCreate({
        project_id: swept,
        weave_ref: `weave:///${swept}/call/o1`,
        feedback_type: 'wandb.reaction.1',
        payload: { emoji: '👍' },
      });
      await t.alice.client.feedbackCreate({
        project_id: swept,
        weave_ref: `weave:///${swept}/call/r1`,
        feedback_type: 'wandb.reaction.1',
        payload: { emoji: '👍' },
      });
      await t.alice.client.feedbackCreate({
        project_id: control,
        weave_ref: `weave:///${control}/call/r1`,
        feedback_type: 'wandb.reaction.1',
        payload: { emoji: '👍' },
      });
      expect(await everyRead(t, swept)).not.toEqual(await everyRead(t, control));

      expect(await t.admin.retentionSet({ project_id: swept, days: 30 })).toMatchObject({ days: 30, source: 'project' });
      const report = await t.server.retention.sweepNow();
      expect(report).toMatchObject({ calls: 4, feedback: 1, more: false });

      expect(await everyRead(t, swept)).toEqual(await everyRead(t, control));
      const feedback = await t.alice.client.feedbackQuery({ project_id: swept, fields: ['weave_ref'] });
      expect(feedback.result).toEqual([{ weave_ref: `weave:///${swept}/call/r1` }]);
      // Nothing is left to sweep, and a second sweep changes nothing.
      expect(await t.server.retention.sweepNow()).toMatchObject({ calls: 0 });
      expect(await everyRead(t, swept)).toEqual(await everyRead(t, control));
    });

    it('loses no call it should keep while calls are being written during the sweep', async () => {
      const p = 'alice-co/ret-load';
      await t.admin.retentionSet({ project_id: p, days: 30 });
      const old: Item[] = [];
      // 2,400 expired calls: five batches of 500, with the event loop yielded between them.
      for (let i = 0; i < 2_400; i++)
        old.push(...call(p, `old-${i}`, 31 + (i % 20), { sec: i, thread: i % 3 ? undefined : `th-${i % 7}` }));
      for (let i = 0; i < old.length; i += 1_000) await write(old.slice(i, i + 1_000));
      const kept: string[] = [];
      const writer = (async () => {
        for (let round = 0; round < 40; round++) {
          const batch: Item[] = [];
          for (let j = 0; j < 10; j++) {
            const id = `new-${round}-${j}`;
            kept.push(id);
            batch.push(...call(p, id, 29 - (j % 5), { sec: round, thread: j % 2 ? `th-${j % 7}` : undefined }));
          }
          await write(batch);
        }
      })();
      const [report] = await Promise.all([t.server.retention.sweepNow(), writer]);
      expect(report!.batches).toBeGreaterThan(1);
      // Whatever the first sweep had not reached, the next one takes.
      await t.server.retention.sweepNow();
      expect(await callIds(p)).toEqual(kept.sort());
      const threads = [];
      for await (const th of t.alice.client.threadsStreamQuery({ project_id: p })) threads.push(th);
      // Only the new turns count: 200 new calls in odd j are turns (j = 1, 3, 5, 7, 9), in threads th-1, th-3, th-5, th-0, th-2.
      expect(threads.reduce((n, th) => n + th.turn_count, 0)).toBe(200);
      const count = await t.alice.client.callsQueryStats({ project_id: p });
      expect(count.count).toBe(400);
    });

    it('applies the entity default to every project of the entity, and a project rule overrides it', async () => {
      const plain = 'alice-co/ret-default';
      const own = 'alice-co/ret-own';
      await write([...call(plain, 'a20', 20), ...call(plain, 'a5', 5), ...call(own, 'b20', 20), ...call(own, 'b40', 40)]);
      await t.admin.retentionSet({ entity: 'alice-co', days: 10 });
      await t.admin.retentionSet({ project_id: own, days: 30 });
      expect(await t.alice.client.retentionRead({ project_id: plain })).toMatchObject({
        days: 10,
        source: 'entity',
        entity_days: 10,
        project_days: null,
        updated_by: 'admin',
      });
      expect(await t.alice.client.retentionRead({ project_id: own })).toMatchObject({ days: 30, source: 'project', entity_days: 10 });
      await t.server.retention.sweepNow();
      expect(await callIds(plain)).toEqual(['a5']);
      expect(await callIds(own)).toEqual(['b20']);
      // Removing the entity default keeps whatever is left forever.
      await t.admin.retentionSet({ entity: 'alice-co', days: null });
      expect(await t.alice.client.retentionRead({ project_id: plain })).toMatchObject({ days: null, source: 'none' });
    });

    it('refuses a rule change to a member (403 naming the admin role) and to other entities, and reads to strangers', async () => {
      const res = await t.fetch('/weft/retention', { method: 'PUT', json: { project_id: 'alice-co/ret-x', days: 3 } });
      expect(res.status).toBe(403);
      expect(JSON.stringify(await res.json())).toMatch(/must be an admin/);
      const entity = await t.fetch('/weft/retention', { method: 'PUT', json: { entity: 'alice-co', days: 3 } });
      expect(entity.status).toBe(403);
      const bob = await t.fetch('/weft/retention?entity=alice-co', { headers: { authorization: t.bob.authHeader } });
      expect(bob.status).toBe(403);
      expect((await t.fetch('/weft/retention?project_id=alice-co/ret-x')).status).toBe(200);
      expect(await t.admin.retentionRead({ project_id: 'alice-co/ret-x' })).toMatchObject({ project_days: null });
    });

    it('answers 422 for days that are not a whole number ≥ 1 and 400 without exactly one target', async () => {
      for (const days of [0, -1, 1.5, 'x']) {
        const res = await t.fetch('/weft/retention', {
          method: 'PUT',
          headers: { authorization: t.alice.authHeader },
          json: { entity: 'alice-co', days },
        });
        expect(res.status, String(days)).toBe(422);
      }
      const admin = { authorization: `Basic ${Buffer.from('admin:admin-test-password').toString('base64')}` };
      expect((await t.fetch('/weft/retention', { method: 'PUT', headers: admin, json: { days: 3 } })).status).toBe(400);
      expect(
        (await t.fetch('/weft/retention', { method: 'PUT', headers: admin, json: { entity: 'a', project_id: 'a/b', days: 3 } })).status,
      ).toBe(400);
    });
  });
}
