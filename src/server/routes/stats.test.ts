import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatsRes } from '../../contract/stats.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const T = Date.UTC(2024, 0, 1);
/** `minutes` after 2024-01-01T00:00:00Z, as ISO. */
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
const post = async (path: string, json: unknown, headers?: Record<string, string>) => {
  const res = await t.fetch(path, { json, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** A call of `op` started `minutes` after T; ended after `ms` unless null. */
async function logCall(
  projectId: string,
  id: string,
  o: { op: string; minutes: number; ms: number | null; exception?: string; usage?: Record<string, Record<string, number>> },
) {
  const batch: Parameters<TestServer['alice']['client']['callUpsertBatch']>[0]['batch'] = [
    {
      mode: 'start',
      req: {
        start: { project_id: projectId, id, trace_id: `t-${id}`, op_name: o.op, started_at: at(o.minutes), attributes: {}, inputs: {} },
      },
    },
  ];
  if (o.ms !== null) {
    const ended = new Date(T + o.minutes * 60_000 + o.ms).toISOString();
    batch.push({
      mode: 'end',
      req: { end: { project_id: projectId, id, ended_at: ended, exception: o.exception, summary: o.usage ? { usage: o.usage } : {} } },
    });
  }
  await t.alice.client.callUpsertBatch({ batch });
}

// Every backend answers the same: ClickHouse computes per request what SQLite keeps in rollups.
for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      P = `${t.alice.entity}/stats`;
      await logCall(P, 'a', {
        op: 'llm',
        minutes: 1,
        ms: 1000,
        usage: { 'gpt-4o': { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, requests: 1 } },
      });
      await logCall(P, 'b', {
        op: 'llm',
        minutes: 2,
        ms: 3000,
        exception: 'boom',
        usage: { 'gpt-4o': { prompt_tokens: 50, completion_tokens: 10 } },
      });
      await logCall(P, 'c', {
        op: 'tool',
        minutes: 10,
        ms: 500,
        usage: { 'claude-x': { input_tokens: 40, output_tokens: 8, total_tokens: 48, cache_read_input_tokens: 30 } },
      });
      await logCall(P, 'd', { op: 'tool', minutes: 12, ms: null });
      await logCall(P, 'e', { op: 'llm', minutes: 40, ms: 2000 });
      await logCall(P, 'f', { op: 'llm', minutes: 90, ms: 10 });
      await t.alice.client.callsDelete({ project_id: P, call_ids: ['e'] });
      // gpt-4o's price changes between a (00:01) and b (00:02); each call pays the price of its start.
      await t.alice.client.costCreate({
        project_id: P,
        costs: { 'gpt-4o': { prompt_token_cost: 0.01, completion_token_cost: 0.02, effective_date: '2023-01-01T00:00:00Z' } },
      });
      await t.alice.client.costCreate({
        project_id: P,
        costs: { 'gpt-4o': { prompt_token_cost: 0.1, completion_token_cost: 0.2, effective_date: at(1.5) } },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    describe('POST /calls/stats', () => {
      it('aggregates call metrics per bucket, zero-filling empty buckets', async () => {
        const res = CallStatsRes.parse(
          await t.alice.client.callStats({
            project_id: P,
            start: at(0),
            end: at(60),
            granularity: 1800,
            call_metrics: [
              { metric: 'latency_ms', aggregations: ['sum', 'avg', 'min', 'max', 'count', 'count_true'], percentiles: [50, 99.5] },
              { metric: 'call_count' },
              { metric: 'error_count', aggregations: ['sum', 'avg'] },
            ],
          }),
        );
        expect(res).toMatchObject({
          start: '2024-01-01T00:00:00Z',
          end: '2024-01-01T01:00:00Z',
          granularity: 1800,
          timezone: 'UTC',
          usage_buckets: [],
        });
        // Bucket 1 holds a, b, c (latencies 1000, 3000, 500) and d (running); e is deleted.
        expect(res.call_buckets).toEqual([
          {
            timestamp: '2024-01-01T00:00:00Z',
            sum_latency_ms: 4500,
            avg_latency_ms: 1500,
            min_latency_ms: 500,
            max_latency_ms: 3000,
            count_latency_ms: 3,
            count_true_latency_ms: 0,
            p50_latency_ms: 1000,
            'p99.5_latency_ms': 2980,
            sum_call_count: 4,
            sum_error_count: 1,
            avg_error_count: 0.25,
            count: 4,
          },
          {
            timestamp: '2024-01-01T00:30:00Z',
            sum_latency_ms: 0,
            avg_latency_ms: 0,
            min_latency_ms: null,
            max_latency_ms: null,
            count_latency_ms: 0,
            count_true_latency_ms: 0,
            p50_latency_ms: null,
            'p99.5_latency_ms': null,
            sum_call_count: 0,
            sum_error_count: 0,
            avg_error_count: 0,
            count: 0,
          },
        ]);
      });

      it('aggregates usage per bucket and model, with costs at the price in force when each call started', async () => {
        const res = await t.alice.client.callStats({
          project_id: P,
          start: at(0),
          end: at(60),
          granularity: 1800,
          usage_metrics: [
            { metric: 'input_tokens', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: [50] },
            { metric: 'total_tokens', aggregations: ['sum', 'avg', 'count'] },
            { metric: 'cache_read_input_tokens' },
            { metric: 'input_cost' },
            { metric: 'total_cost', aggregations: ['sum', 'max'] },
          ],
        });
        const empty = {
          sum_input_tokens: 0,
          avg_input_tokens: 0,
          min_input_tokens: null,
          max_input_tokens: null,
          count_input_tokens: 0,
          p50_input_tokens: null,
          sum_total_tokens: 0,
          avg_total_tokens: 0,
          count_total_tokens: 0,
          sum_cache_read_input_tokens: 0,
          sum_input_cost: 0,
          sum_total_cost: 0,
          max_total_cost: null,
          count: 0,
        };
        expect(res.call_buckets).toEqual([]);
        expect(res.usage_buckets).toEqual([
          {
            timestamp: '2024-01-01T00:00:00Z',
            model: 'claude-x',
            sum_input_tokens: 40,
            avg_input_tokens: 40,
            min_input_tokens: 40,
            max_input_tokens: 40,
            count_input_tokens: 1,
            p50_input_tokens: 40,
            sum_total_tokens: 48,
            avg_total_tokens: 48,
            count_total_tokens: 1,
            sum_cache_read_input_tokens: 30,
            // No price for claude-x: its costs are null, so sums stay 0 and max is null.
            sum_input_cost: 0,
            sum_total_cost: 0,
            max_total_cost: null,
            count: 1,
          },
          {
            timestamp: '2024-01-01T00:00:00Z',
            model: 'gpt-4o',
            sum_input_tokens: 150,
            avg_input_tokens: 75,
            min_input_tokens: 50,
            max_input_tokens: 100,
            count_input_tokens: 2,
            p50_input_tokens: 75,
            // b reports no total_tokens: under the one usage rule its total is input + output (60),
            // the number the calls table shows for it (the reference's stats would skip it).
            sum_total_tokens: 180,
            avg_total_tokens: 90,
            count_total_tokens: 2,
            sum_cache_read_input_tokens: 0,
            // a: 100 × 0.01 + 20 × 0.02 = 1.4; b: 50 × 0.1 + 10 × 0.2 = 7.
            sum_input_cost: expect.closeTo(6, 9),
            sum_total_cost: expect.closeTo(8.4, 9),
            max_total_cost: expect.closeTo(7, 9),
            count: 2,
          },
          { timestamp: '2024-01-01T00:30:00Z', model: 'claude-x', ...empty },
          { timestamp: '2024-01-01T00:30:00Z', model: 'gpt-4o', ...empty },
        ]);
      });

      it('aligns buckets to the time zone: +05:30 hours, and Berlin days across DST', async () => {
        const kolkata = await t.alice.client.callStats({
          project_id: P,
          start: at(0),
          end: at(120),
          granularity: 3600,
          timezone: 'Asia/Kolkata',
          call_metrics: [{ metric: 'call_count' }],
        });
        expect(kolkata.call_buckets.map((b) => [b.timestamp, b.count])).toEqual([
          ['2023-12-31T23:30:00Z', 4],
          ['2024-01-01T00:30:00Z', 0],
          ['2024-01-01T01:30:00Z', 1],
        ]);

        const D = `${t.alice.entity}/stats-dst`;
        // 23:30 on 31 March and 00:30 on 1 April, Berlin summer time: both 31 March in UTC.
        await t.alice.client.callStart({
          start: { project_id: D, id: 'x', op_name: 'op', started_at: '2024-03-31T21:30:00Z', attributes: {}, inputs: {} },
        });
        await t.alice.client.callStart({
          start: { project_id: D, id: 'y', op_name: 'op', started_at: '2024-03-31T22:30:00Z', attributes: {}, inputs: {} },
        });
        const day = (timezone: string) =>
          t.alice.client.callStats({
            project_id: D,
            start: '2024-03-30T23:00:00Z',
            end: '2024-04-01T22:00:00Z',
            granularity: 86_400,
            timezone,
            call_metrics: [{ metric: 'call_count' }],
          });
        expect((await day('Europe/Berlin')).call_buckets.map((b) => [b.timestamp, b.count])).toEqual([
          ['2024-03-30T23:00:00Z', 1],
          ['2024-03-31T22:00:00Z', 1],
        ]);
        expect((await day('UTC')).call_buckets.map((b) => [b.timestamp, b.count])).toEqual([
          ['2024-03-30T00:00:00Z', 0],
          ['2024-03-31T00:00:00Z', 2],
          ['2024-04-01T00:00:00Z', 0],
        ]);
      });

      it('chooses the granularity from the window and applies the calls filter', async () => {
        const month = await t.alice.client.callStats({
          project_id: P,
          start: at(0),
          end: at(30 * 24 * 60),
          call_metrics: [{ metric: 'call_count' }],
        });
        expect(month.granularity).toBe(86_400);
        expect(month.call_buckets).toHaveLength(30);
        expect(month.call_buckets[0]).toEqual({ timestamp: '2024-01-01T00:00:00Z', sum_call_count: 5, count: 5 });
        const capped = await t.alice.client.callStats({ project_id: P, start: at(0), end: at(30 * 24 * 60), granularity: 60 });
        expect(capped.granularity).toBe(260);

        const now = Date.now();
        const recent = await t.alice.client.callStats({ project_id: P, start: new Date(now - 3_600_000).toISOString() });
        expect(recent.granularity).toBe(300);
        expect(Date.parse(recent.end)).toBeGreaterThanOrEqual(now);

        const tools = await t.alice.client.callStats({
          project_id: P,
          start: at(0),
          end: at(30),
          granularity: 1800,
          filter: { op_names: ['tool'] },
          call_metrics: [{ metric: 'call_count' }],
        });
        expect(tools.call_buckets).toEqual([{ timestamp: '2024-01-01T00:00:00Z', sum_call_count: 2, count: 2 }]);
        const byIds = await t.alice.client.callStats({
          project_id: P,
          start: at(0),
          end: at(30),
          granularity: 1800,
          filter: { call_ids: ['a', 'd', 'e'] },
          call_metrics: [{ metric: 'error_count' }],
        });
        expect(byIds.call_buckets).toEqual([{ timestamp: '2024-01-01T00:00:00Z', sum_error_count: 0, count: 2 }]);
      });

      it('answers 422 on bad metrics, zones or granularity, 400 when end is before start, 403 elsewhere', async () => {
        const base = { project_id: P, start: at(0), end: at(60) };
        const bad = [
          { call_metrics: [{ metric: 'tokens' }] },
          { usage_metrics: [{ metric: 'latency_ms' }] },
          { call_metrics: [{ metric: 'latency_ms', aggregations: ['median'] }] },
          { call_metrics: [{ metric: 'latency_ms', percentiles: [101] }] },
          { timezone: 'Mars/Olympus' },
          { granularity: 0 },
          { start: 'yesterday' },
        ];
        for (const extra of bad) {
          const res = await post('/calls/stats', { ...base, ...extra });
          expect(res.status, JSON.stringify(extra)).toBe(422);
          expect(res.body.detail).toBeInstanceOf(Array);
        }
        expect((await post('/calls/stats', { ...base, start: at(60), end: at(0) })).status).toBe(400);
        expect((await post('/calls/stats', { ...base, start: at(0), end: at(0) })).body).toMatchObject({
          call_buckets: [],
          usage_buckets: [],
        });
        expect((await post('/calls/stats', { ...base, project_id: `${t.bob.entity}/stats` })).status).toBe(403);
        expect((await post('/calls/stats', base, { authorization: t.bob.authHeader })).status).toBe(403);
      });
    });
  });
}
