import { describe, expect, it } from 'vitest';
import type { OutlineSpan, TraceOutlineHead, TraceOutlineLine } from '../../../contract/traceOutline.js';
import { addBatch, EMPTY_OUTLINE, outlineBatches, outlineComplete, type BatchTiming, type OutlineBatch } from './outlineStream.js';

const span = (i: number): OutlineSpan => ({
  id: `s${i}`,
  parent_id: i ? 's0' : null,
  op_name: 'step',
  display_name: null,
  status: 'success',
  error: false,
  started_at: '2026-01-01T00:00:00Z',
  ended_at: '2026-01-01T00:00:01Z',
  latency_ms: 1000,
  tokens: null,
  cost: null,
  rollup: { descendants: 0, errors: 0, tokens: 0, cost: null },
});
const head = (spans: number): TraceOutlineHead => ({ trace_id: 't', spans, truncated: false, models: [] });

/** The head and `n` spans, each line taking 1 ms of a fake clock. */
function run(n: number, timing: Partial<BatchTiming> = {}) {
  const clock = { now: 0 };
  const pauses: { afterFirst: boolean; at: number }[] = [];
  async function* lines(): AsyncGenerator<TraceOutlineLine> {
    yield { head: head(n) };
    for (let i = 0; i < n; i++) {
      clock.now += 1;
      yield span(i);
    }
  }
  const t: BatchTiming = {
    firstBatch: 3,
    sliceMs: 10,
    flushMs: 100,
    pause: async (afterFirst) => void pauses.push({ afterFirst, at: clock.now }),
    now: () => clock.now,
    ...timing,
  };
  return { batches: outlineBatches(lines(), t), pauses };
}

async function collect(batches: AsyncIterable<OutlineBatch>): Promise<OutlineBatch[]> {
  const out: OutlineBatch[] = [];
  for await (const b of batches) out.push({ ...b, spans: [...b.spans] });
  return out;
}

describe('outlineBatches', () => {
  it('hands the head and the first screen over at once and waits for the page to paint it', async () => {
    const { batches, pauses } = run(1000);
    const got = await collect(batches);
    expect(got[0]).toEqual({ head: head(1000), spans: [span(0), span(1), span(2)] });
    expect(pauses[0]).toEqual({ afterFirst: true, at: 3 });
    expect(got.slice(1).every((b) => b.head === undefined && b.spans.length > 0)).toBe(true);
    // Everything, once, in order.
    const whole = got.reduce(addBatch, EMPTY_OUTLINE);
    expect(whole.spans.map((s) => s.id)).toEqual(Array.from({ length: 1000 }, (_, i) => `s${i}`));
    expect(outlineComplete(whole)).toBe(true);
  });

  it('reads the rest in slices with a turn for the page between, handing spans over every flushMs', async () => {
    const { batches, pauses } = run(1000);
    const got = await collect(batches);
    const slices = pauses.filter((p) => !p.afterFirst);
    // A pause every 64 lines once 10 ms have passed: 1000 lines make 15 slices after the first batch.
    expect(slices.length).toBe(15);
    // Hand-overs 100 ms apart at the earliest, so at every other slice (128 lines, 128 ms): the
    // first batch, 7 of them for the 997 lines after it, and the rest.
    expect(got.length).toBe(9);
  });

  it('answers a short or empty outline in one batch with its head', async () => {
    expect(await collect(run(2).batches)).toEqual([{ head: head(2), spans: [span(0), span(1)] }]);
    expect(await collect(run(0).batches)).toEqual([{ head: head(0), spans: [] }]);
    expect(outlineComplete(addBatch(EMPTY_OUTLINE, { head: head(0), spans: [] }))).toBe(true);
    expect(outlineComplete(addBatch(EMPTY_OUTLINE, { head: head(3), spans: [span(0)] }))).toBe(false);
  });
});
