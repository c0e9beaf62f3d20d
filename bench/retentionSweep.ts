/**
 * The retention sweep on SQLite (docs/performance.md "Retention sweep"): how long deleting
 * expired calls takes, in how many batches, and what it does to reads and writes meanwhile.
 *
 *   npm run bench:retention [-- --expired 100000 --kept 20000 --readers 2 --writers 1 --baseline 10]
 *
 * A real server (request threads on) over a temporary data directory is filled, through its
 * store, with `--expired` calls started 40 days ago and `--kept` started yesterday (one in five a
 * thread's turn, each with usage), and given a 30-day rule. `--readers` clients then query the
 * project over HTTP in a loop (a calls page, a count, a threads page), and `--writers` clients
 * send batches of 20 calls to another project, for `--baseline` seconds and then while the
 * server's sweep (`retention.sweepNow`, as the timer runs it) goes tick after tick until nothing
 * is left. Printed: each tick's time and batches; reads' and writes' p50/p99/max before and
 * during; the main thread's event-loop delay (p99, max) before and during, which shows whether
 * the sweep held the main thread (the bench's clients run on it too); the load average.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { CallWrite } from '../src/server/store/Store.js';
import { startTestServer } from '../src/server/testing/testServer.js';

const { values } = parseArgs({
  options: {
    expired: { type: 'string', default: '100000' },
    kept: { type: 'string', default: '20000' },
    readers: { type: 'string', default: '2' },
    writers: { type: 'string', default: '1' },
    baseline: { type: 'string', default: '10' },
  },
});
const EXPIRED = Number(values.expired);
const KEPT = Number(values.kept);
const READERS = Number(values.readers);
const WRITERS = Number(values.writers);
const BASELINE_MS = Number(values.baseline) * 1000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const P = 'alice-co/retention';
const DAY_US = 86_400_000_000;
const now = Date.now() * 1000;

const t = await startTestServer({ env: { WEFT_READ_THREADS: '2', WEFT_WRITE_THREADS: '1', WEFT_RETENTION_SWEEP_SECONDS: '86400' } });
try {
  const store = t.server.store;
  const fill = async (count: number, ageDays: number, prefix: string) => {
    for (let first = 0; first < count; first += 5_000) {
      const writes: CallWrite[] = [];
      for (let i = first; i < Math.min(count, first + 5_000); i++) {
        const id = `${prefix}-${i}`;
        const startedAt = now - ageDays * DAY_US + i * 1_000;
        const turn = i % 5 === 0;
        writes.push(
          {
            kind: 'start',
            projectId: P,
            id,
            traceId: id,
            parentId: null,
            threadId: turn ? `th-${i % 1000}` : null,
            turnId: turn ? id : null,
            opName: `weave:///${P}/op/op${i % 10}:abc`,
            displayName: null,
            startedAt,
            attributesJson: '{}',
            inputsJson: JSON.stringify({ q: `question ${i}`, pad: 'x'.repeat(400) }),
            otelDumpJson: null,
            inputRefs: [],
            wbUserId: 'alice',
            wbRunId: null,
            wbRunStep: null,
          },
          {
            kind: 'end',
            projectId: P,
            id,
            endedAt: startedAt + 250_000 + (i % 7) * 1_000,
            exception: i % 50 ? null : 'boom',
            outputJson: JSON.stringify({ a: `answer ${i}`, pad: 'y'.repeat(400) }),
            summaryJson: JSON.stringify({ usage: { 'gpt-4o': { prompt_tokens: 100, completion_tokens: 20, requests: 1 } } }),
            outputRefs: [],
            wbRunStepEnd: null,
          },
        );
      }
      await store.calls.writeCalls(writes);
    }
  };
  await fill(EXPIRED, 40, 'old');
  await fill(KEPT, 1, 'new');

  const reads = [
    () => t.fetch('/calls/stream_query', { json: { project_id: P, limit: 50, sort_by: [{ field: 'started_at', direction: 'desc' }] } }),
    () => t.fetch('/calls/query_stats', { json: { project_id: P } }),
    () => t.fetch('/threads/stream_query', { json: { project_id: P, limit: 50 } }),
  ];
  let written = 0;
  const write = () => {
    const at = new Date().toISOString();
    const batch = Array.from({ length: 20 }, () => {
      const id = `w-${written++}`;
      return [
        {
          mode: 'start',
          req: { start: { project_id: 'alice-co/writes', id, trace_id: id, op_name: 'op', started_at: at, inputs: { q: id } } },
        },
        { mode: 'end', req: { end: { project_id: 'alice-co/writes', id, ended_at: at, output: id, summary: {} } } },
      ];
    }).flat();
    return t.fetch('/call/upsert_batch', { json: { batch } });
  };
  /** Runs the clients until `until`, answering each kind's request times, sorted. */
  const measure = async (until: () => boolean): Promise<{ reads: number[]; writes: number[] }> => {
    const out = { reads: [] as number[], writes: [] as number[] };
    const client = async (kind: 'reads' | 'writes', r: number) => {
      for (let i = r; !until(); i++) {
        const began = performance.now();
        const res = await (kind === 'reads' ? reads[i % reads.length]!() : write());
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a ${kind.slice(0, -1)} answered ${res.status}`);
        out[kind].push(performance.now() - began);
      }
    };
    await Promise.all([
      ...Array.from({ length: READERS }, (_, r) => client('reads', r)),
      ...Array.from({ length: WRITERS }, (_, r) => client('writes', r)),
    ]);
    out.reads.sort((a, b) => a - b);
    out.writes.sort((a, b) => a - b);
    return out;
  };
  const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(1) : '-');
  const line = (xs: number[]) => `${xs.length}, p50 ${pct(xs, 50)} ms, p99 ${pct(xs, 99)} ms, max ${pct(xs, 100)} ms`;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const loopLine = () => `p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`;

  // The sweep's thread (when there is one) starts at the first sweep: started here, outside both
  // windows, with nothing to delete yet.
  await store.retention.setRule({ scope: 'project', key: P, days: 36_500, updatedAt: now, updatedBy: 'bench' });
  await t.server.retention.sweepNow();
  await store.retention.setRule({ scope: 'project', key: P, days: 30, updatedAt: now, updatedBy: 'bench' });

  // Unmeasured: the read threads' first queries (statements prepared, pages read into the cache).
  const warmEnd = performance.now() + 3_000;
  await measure(() => performance.now() > warmEnd);

  const loadBefore = load();
  loop.enable();
  const baselineEnd = performance.now() + BASELINE_MS;
  const baseline = await measure(() => performance.now() > baselineEnd);
  loop.disable();
  const loopBefore = loopLine();
  loop.reset();

  let sweeping = true;
  loop.enable();
  const during = measure(() => !sweeping);
  const began = performance.now();
  const ticks: string[] = [];
  let calls = 0;
  let batches = 0;
  let threadId = -1;
  for (;;) {
    const tickBegan = performance.now();
    const report = await t.server.retention.sweepNow();
    if (!report) throw new Error('the sweep failed (see the log)');
    ticks.push(`${report.calls} calls in ${report.batches} batches, ${((performance.now() - tickBegan) / 1000).toFixed(2)} s`);
    calls += report.calls;
    batches += report.batches;
    threadId = (report as { threadId?: number }).threadId ?? 0;
    if (!report.more) break;
  }
  const seconds = (performance.now() - began) / 1000;
  sweeping = false;
  const measured = await during;
  loop.disable();
  const left = await store.calls.countCalls({ projectId: P });

  console.log(
    `swept ${calls} expired calls (kept ${left} of ${KEPT}) in ${seconds.toFixed(2)} s, ${batches} batches, ${(calls / seconds).toFixed(0)} calls/s, on thread ${threadId}`,
  );
  for (const [i, tick] of ticks.entries()) console.log(`  tick ${i + 1}: ${tick}`);
  console.log(`reads before: ${line(baseline.reads)}`);
  console.log(`reads during: ${line(measured.reads)}`);
  if (WRITERS) console.log(`writes (20 calls) before: ${line(baseline.writes)}`);
  if (WRITERS) console.log(`writes (20 calls) during: ${line(measured.writes)}`);
  console.log(`main thread's event-loop delay before: ${loopBefore}; during: ${loopLine()}`);
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}`);
} finally {
  await t.close();
}
