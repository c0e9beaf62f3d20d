/**
 * Requests in worker threads, over real HTTP and a real SQLite file: reads do not wait behind
 * other work, a read past its time budget gets a clear 504, a client that leaves frees its
 * thread, and concurrent writes are committed together without one bad request failing others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { THREAD_NICENESS } from './requestThreads.js';

const PROJECT = 'alice-co/threads';

/** `count` finished calls with ~`inputBytes` of inputs each, through /call/upsert_batch. */
async function seed(t: TestServer, count: number, inputBytes = 100): Promise<void> {
  const filler = 'x'.repeat(inputBytes);
  for (let from = 0; from < count; from += 1000) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + 1000); i++) {
      const id = `call-${String(i).padStart(6, '0')}`;
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
      batch.push({
        mode: 'start',
        req: { start: { project_id: PROJECT, id, trace_id: id, op_name: 'op', started_at: at, attributes: {}, inputs: { n: i, filler } } },
      });
      batch.push({ mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: at, output: { n: i }, summary: {} } } });
    }
    const res = await t.fetch('/call/upsert_batch', { json: { batch } });
    expect(res.status).toBe(200);
  }
}

const countCalls = async (t: TestServer) =>
  ((await (await t.fetch('/calls/query_stats', { json: { project_id: PROJECT } })).json()) as { count: number }).count;

describe('request threads', () => {
  describe('with one read thread', () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ env: { WEFT_THREADS: '1', WEFT_READ_THREADS: '1' } });
      await t.server.threads!.whenReady();
      await seed(t, 3000, 2000);
    });
    afterAll(() => t.close());

    it('frees the thread of a streamed read whose client disconnected', async () => {
      const abort = new AbortController();
      const res = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT }, signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      // ~6 MB are left to send: more than the thread may send ahead, so it waits for this client.
      abort.abort();
      await reader.cancel().catch(() => {});
      // The only read thread serves the next read: the abandoned one did not keep it.
      expect(await countCalls(t)).toBe(3000);
    });

    it('answers /health while the read thread is busy with a client that reads slowly', async () => {
      const res = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT } });
      const reader = res.body!.getReader();
      await reader.read();
      const health = await fetch(`${t.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      // The slow client finishes: every row arrives.
      let text = '';
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      expect(text.trim().split('\n').length).toBeGreaterThan(2000);
    });

    it('answers whoami while the same user holds the read thread', async () => {
      // The dashboard's session check, asked for beside a long read of the same user (a big
      // trace's outline): on a read thread it waited for that read's end.
      const held = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT } });
      const reader = held.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      const who = await t.fetch('/weft/whoami');
      expect(who.status).toBe(200);
      expect(await who.json()).toMatchObject({ username: 'alice' });
      await reader.cancel();
    });
  });

  describe('with two read threads', () => {
    let t: TestServer;
    beforeAll(async () => {
      // Alice may hold both threads here: these tests hold one and read on the other as her.
      t = await startTestServer({ env: { WEFT_THREADS: '1', WEFT_READ_THREADS: '2', WEFT_READS_PER_USER: '2' } });
      await t.server.threads!.whenReady();
      await seed(t, 3000, 2000);
    });
    afterAll(() => t.close());

    it('serves other reads while a long read holds a thread', async () => {
      const held = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT } });
      const reader = held.body!.getReader();
      await reader.read();
      // The held stream occupies one thread; these are served by the other.
      expect(await countCalls(t)).toBe(3000);
      const first = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT, limit: 5 } });
      expect((await first.text()).trim().split('\n')).toHaveLength(5);
      await reader.cancel();
    });

    // setpriority() is per thread on Linux only; elsewhere the threads keep the process's priority.
    it.runIf(process.platform === 'linux')('runs the write thread below the priority of the main thread', () => {
      // A task's nice value is the 19th field of its /proc stat (after the parenthesised name).
      const niceOf = (path: string) => {
        const stat = readFileSync(path, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const main = niceOf('/proc/self/stat');
      const threads = readdirSync('/proc/self/task').map((tid) => niceOf(`/proc/self/task/${tid}/stat`));
      const lowered = threads.filter((nice) => nice > main);
      expect(lowered.length).toBeGreaterThan(0);
      expect(new Set(lowered)).toEqual(new Set([Math.min(19, main + THREAD_NICENESS.write)]));
    });

    it('commits concurrent writes together, and one invalid request fails alone', async () => {
      const requests = Array.from({ length: 12 }, (_, i) => {
        const id = `concurrent-${i}`;
        const start = {
          project_id: PROJECT,
          id,
          trace_id: id,
          op_name: 'op',
          started_at: '2026-02-01T00:00:00Z',
          attributes: {},
          inputs: {},
        };
        // Request 5 carries an invalid item: its whole batch is refused, the others are kept.
        const bad = i === 5 ? [{ mode: 'start', req: { start: { ...start, id: 'concurrent-bad', started_at: 'not a date' } } }] : [];
        return t.fetch('/call/upsert_batch', { json: { batch: [{ mode: 'start', req: { start } }, ...bad] } });
      });
      const statuses = (await Promise.all(requests)).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(11);
      expect(statuses[5]).toBe(422);
      const res = await t.fetch('/calls/stream_query', {
        json: {
          project_id: PROJECT,
          filter: { trace_ids: [...Array.from({ length: 12 }, (_, i) => `concurrent-${i}`), 'concurrent-bad'] },
        },
      });
      const ids = (await res.text())
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id)
        .sort();
      expect(ids).toEqual(
        Array.from({ length: 12 }, (_, i) => `concurrent-${i}`)
          .filter((id) => id !== 'concurrent-5')
          .sort(),
      );
      expect(t.server.threads!.committer.counts.units).toBeGreaterThanOrEqual(11);
    });
  });

  describe('with a read time budget', () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ env: { WEFT_THREADS: '1', WEFT_READ_BUDGET_MS: '1' } });
      await t.server.threads!.whenReady();
      await seed(t, 3000);
    });
    afterAll(() => t.close());

    it('answers 504 naming the budget, stops the read, and keeps serving', async () => {
      const res = await t.fetch('/calls/stream_query', {
        json: { project_id: PROJECT, sort_by: [{ field: 'inputs.n', direction: 'desc' }] },
      });
      expect(res.status).toBe(504);
      const body = (await res.json()) as { reason: string; budget_ms: number };
      expect(body.budget_ms).toBe(1);
      expect(body.reason).toContain('time budget of 1 ms');
      expect(body.reason).toContain('WEFT_READ_BUDGET_MS');
      // Writes have no budget, and the server still answers.
      const id = 'after-budget';
      const write = await t.fetch('/call/start', {
        json: {
          start: { project_id: PROJECT, id, trace_id: id, op_name: 'op', started_at: '2026-03-01T00:00:00Z', attributes: {}, inputs: {} },
        },
      });
      expect(write.status).toBe(200);
      expect((await fetch(`${t.url}/health`)).status).toBe(200);
    });
  });

  describe('with one read thread held and a short budget', () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ env: { WEFT_READ_THREADS: '1', WEFT_READ_BUDGET_MS: '1500' } });
      await t.server.threads!.whenReady();
      await seed(t, 3000, 2000);
    }, 120_000);
    afterAll(() => t.close());

    it('answers 503 with Retry-After to a read that waited the budget for a thread, without starting it', async () => {
      // A client that stops reading holds the only read thread (a slow client never counts against the budget).
      const held = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT } });
      const reader = held.body!.getReader();
      await reader.read();
      const res = await t.fetch('/calls/query_stats', { json: { project_id: PROJECT } });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as { reason: string; budget_ms: number };
      expect(body.budget_ms).toBe(1500);
      expect(body.reason).toContain('WEFT_READ_THREADS');
      // The waiting read was never run: the thread was not stopped, and the held stream still ends whole.
      expect(t.server.threads!.terminated).toBe(0);
      let lines = 0;
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        lines += decoder.decode(value).split('\n').length - 1;
      }
      expect(lines).toBeGreaterThan(2000);
    });

    it('serves evaluation results and status on the read threads, not on the main thread', async () => {
      // Both once ran on the main thread with the model-backed jobs: a 100k-row eval_results
      // query then held /health and every other request's hand-off for its whole run. On a read
      // thread they queue like any read, so with the only one held they get the same 503.
      const held = await t.fetch('/calls/stream_query', { json: { project_id: PROJECT } });
      const reader = held.body!.getReader();
      await reader.read();
      const [results, status] = await Promise.all([
        t.fetch(`/v2/${PROJECT}/eval_results/query`, { json: { evaluation_call_ids: ['no-such-run'] } }),
        t.fetch('/evaluations/status', { json: { project_id: PROJECT, call_id: 'no-such-run' } }),
      ]);
      expect([results.status, status.status]).toEqual([503, 503]);
      expect((await fetch(`${t.url}/health`)).status).toBe(200);
      await reader.cancel();
      // With the thread free again, both answer.
      expect((await t.fetch(`/v2/${PROJECT}/eval_results/query`, { json: { evaluation_call_ids: ['no-such-run'] } })).status).toBe(200);
    });
  });
});
