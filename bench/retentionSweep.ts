/**
 * The retention sweep on SQLite (docs/performance.md "Retention sweep"): how long deleting
 * expired calls takes, in how many batches, and what it does to reads meanwhile.
 *
 *   npm run bench:retention [-- --expired 100000 --kept 20000 --readers 2 --files 0]
 *
 * A real server (request threads on) over a temporary data directory is filled, through its
 * store, with `--expired` calls started 40 days ago and `--kept` started yesterday (one in five a
 * thread's turn, each with usage), and given a 30-day rule. `--readers` clients then query the
 * project over HTTP in a loop (a calls page, a count, a threads page) while the sweep runs tick
 * after tick until nothing is left; printed are each tick's time and batches, and the readers'
 * p50/p99 before and during the sweep. With `--files N`, N small files are stored and each call's
 * inputs hold an image value naming one of them (calls share files); the kept calls name the
 * first tenth, so the sweep removes the other nine tenths (docs/operations/retention.md "Files").
 */
import { parseArgs } from 'node:util';
import { sweepRetention } from '../src/server/jobs/RetentionSweeper.js';
import type { CallWrite } from '../src/server/store/Store.js';
import { startTestServer } from '../src/server/testing/testServer.js';

const { values } = parseArgs({
  options: {
    expired: { type: 'string', default: '100000' },
    kept: { type: 'string', default: '20000' },
    readers: { type: 'string', default: '2' },
    files: { type: 'string', default: '0' },
  },
});
const EXPIRED = Number(values.expired);
const KEPT = Number(values.kept);
const READERS = Number(values.readers);
const FILES = Number(values.files);
const P = 'alice-co/retention';
const DAY_US = 86_400_000_000;
const now = Date.now() * 1000;

const t = await startTestServer({ env: { WEFT_READ_THREADS: '2', WEFT_WRITE_THREADS: '1', WEFT_RETENTION_SWEEP_SECONDS: '86400' } });
try {
  const store = t.server.store;
  const digests: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const digest = `file${String(i).padStart(39, '0')}`;
    await store.files.createFile({ projectId: P, digest, name: 'image.png', chunks: [new Uint8Array(1024).fill(i % 256)], createdAt: now });
    digests.push(digest);
  }
  const image = (i: number, share: number) =>
    FILES > 0
      ? { _type: 'CustomWeaveType', weave_type: { type: 'PIL.Image.Image' }, files: { 'image.png': digests[i % share]! }, load_op: 'x' }
      : null;
  const fill = async (count: number, ageDays: number, prefix: string, share: number) => {
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
            inputsJson: JSON.stringify({ q: `question ${i}`, pad: 'x'.repeat(400), image: image(i, share) }),
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
  await fill(EXPIRED, 40, 'old', FILES);
  await fill(KEPT, 1, 'new', Math.max(1, Math.floor(FILES / 10)));
  await store.retention.setRule({ scope: 'project', key: P, days: 30, updatedAt: now, updatedBy: 'bench' });

  const reads = [
    () => t.fetch('/calls/stream_query', { json: { project_id: P, limit: 50, sort_by: [{ field: 'started_at', direction: 'desc' }] } }),
    () => t.fetch('/calls/query_stats', { json: { project_id: P } }),
    () => t.fetch('/threads/stream_query', { json: { project_id: P, limit: 50 } }),
  ];
  const measure = async (until: () => boolean): Promise<number[]> => {
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: READERS }, async (_, r) => {
        for (let i = r; !until(); i++) {
          const began = performance.now();
          const res = await reads[i % reads.length]!();
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`read answered ${res.status}`);
          times.push(performance.now() - began);
        }
      }),
    );
    return times.sort((a, b) => a - b);
  };
  const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(1);

  const baselineEnd = performance.now() + 3_000;
  const baseline = await measure(() => performance.now() > baselineEnd);

  let sweeping = true;
  const during = measure(() => !sweeping);
  const began = performance.now();
  const ticks: string[] = [];
  let calls = 0;
  let batches = 0;
  let files = 0;
  for (;;) {
    const tickBegan = performance.now();
    const report = await sweepRetention(store, { now });
    ticks.push(`${report.calls} calls in ${report.batches} batches, ${((performance.now() - tickBegan) / 1000).toFixed(2)} s`);
    calls += report.calls;
    batches += report.batches;
    files += report.files;
    if (!report.more) break;
  }
  const seconds = (performance.now() - began) / 1000;
  sweeping = false;
  const readsDuring = await during;
  const left = await store.calls.countCalls({ projectId: P });

  console.log(
    `swept ${calls} expired calls (kept ${left} of ${KEPT}) in ${seconds.toFixed(2)} s, ${batches} batches, ${(calls / seconds).toFixed(0)} calls/s`,
  );
  if (FILES > 0) console.log(`  removed ${files} of ${FILES} files`);
  for (const [i, tick] of ticks.entries()) console.log(`  tick ${i + 1}: ${tick}`);
  console.log(`reads before: ${baseline.length}, p50 ${pct(baseline, 50)} ms, p99 ${pct(baseline, 99)} ms`);
  console.log(
    `reads during: ${readsDuring.length}, p50 ${pct(readsDuring, 50)} ms, p99 ${pct(readsDuring, 99)} ms, max ${pct(readsDuring, 100)} ms`,
  );
} finally {
  await t.close();
}
