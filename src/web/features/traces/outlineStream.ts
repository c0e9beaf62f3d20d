/**
 * Reading a trace's streamed outline (`/weft/trace/outline_stream`) into the page in a few
 * batches: the first screen of rows as soon as it has come, painted before the rest is read, then
 * the rest in slices short enough that the page keeps answering (docs/trace-outline.md "Streamed").
 */
import type { OutlineSpan, TraceOutlineHead, TraceOutlineLine, TraceOutlineReq } from '../../../contract/traceOutline.js';
import { readJsonLines } from '../../../client/index.js';

/** The outline as far as it has come; it is whole once `spans.length === head.spans`. */
export interface TraceOutlineData {
  head: TraceOutlineHead;
  spans: OutlineSpan[];
}

/** One batch for the page: the head (first batch only) and the next spans. */
export interface OutlineBatch {
  head?: TraceOutlineHead;
  spans: OutlineSpan[];
}

/** What the page holds before the first batch. */
export const EMPTY_OUTLINE: TraceOutlineData = { head: { trace_id: '', spans: 0, truncated: false, models: [] }, spans: [] };

/** True once every span the head announced is in. */
export const outlineComplete = (data: TraceOutlineData): boolean => data.spans.length >= data.head.spans;

/** Adds a batch to the outline so far (a new object: the page memoizes on it). */
export function addBatch(data: TraceOutlineData, batch: OutlineBatch): TraceOutlineData {
  return { head: batch.head ?? data.head, spans: data.spans.length ? data.spans.concat(batch.spans) : batch.spans };
}

export interface BatchTiming {
  /** Spans in the first batch: more than a screen of rows. */
  firstBatch: number;
  /** Read for this long, then let the page paint and answer input. */
  sliceMs: number;
  /** Hand the page what has come at most this often after the first batch (each costs a tree build). */
  flushMs: number;
  /** Lets the page work: after the first batch, until it has painted; after a slice, a turn. */
  pause: (afterFirst: boolean) => Promise<void>;
  now: () => number;
}

export const BATCH_TIMING: BatchTiming = { firstBatch: 100, sliceMs: 30, flushMs: 400, pause: letPageWork, now: () => performance.now() };

/**
 * Groups the outline's lines into batches for the page. The first batch (the head and the first
 * `firstBatch` spans) is followed by a pause until the page has painted it; the rest are read in
 * slices of `sliceMs` with a pause between, handed over every `flushMs` and at the end.
 */
export async function* outlineBatches(
  lines: AsyncIterable<TraceOutlineLine>,
  timing: BatchTiming = BATCH_TIMING,
): AsyncGenerator<OutlineBatch> {
  let head: TraceOutlineHead | undefined;
  let spans: OutlineSpan[] = [];
  let first = true;
  let sliceStart = timing.now();
  let flushed = sliceStart;
  for await (const line of lines) {
    if ('head' in line) {
      head = line.head;
      continue;
    }
    spans.push(line);
    if (first) {
      if (spans.length < timing.firstBatch) continue;
      yield { head, spans };
      spans = [];
      head = undefined;
      first = false;
      await timing.pause(true);
      sliceStart = flushed = timing.now();
      continue;
    }
    // Reading the clock is cheap, but not free: every 64 lines is often enough for ~30 ms slices.
    if ((spans.length & 63) !== 0) continue;
    const now = timing.now();
    if (now - sliceStart < timing.sliceMs) continue;
    if (now - flushed >= timing.flushMs) {
      yield { spans };
      spans = [];
      flushed = now;
    }
    await timing.pause(false);
    sliceStart = timing.now();
  }
  if (first || spans.length) yield head ? { head, spans } : { spans };
}

type EarlyOutline = { body: string; at: number; response: Promise<Response | null> };
/** An early answer older than this (the page was not opened on the trace after all) is not taken. */
const EARLY_FOR_MS = 10_000;
type WithEarly = { __weftEarlyOutline?: EarlyOutline };

/**
 * The lines of the outline request public/boot.js sent before the app's code loaded, when it is
 * this request, was sent in the last 10 s and was answered 200; taken once. Null otherwise: the
 * page then asks itself (and so reports any error the usual way).
 */
export async function earlyOutlineLines(req: TraceOutlineReq, signal: AbortSignal): Promise<AsyncIterable<TraceOutlineLine> | null> {
  const holder = globalThis as WithEarly;
  const early = holder.__weftEarlyOutline;
  if (!early) return null;
  delete holder.__weftEarlyOutline;
  if (early.body !== JSON.stringify(req) || performance.now() - early.at > EARLY_FOR_MS) return null;
  const res = await early.response;
  if (!res?.ok || !res.body) return null;
  const body = res.body;
  signal.addEventListener('abort', () => void body.cancel().catch(() => undefined), { once: true });
  return readJsonLines<TraceOutlineLine>(body);
}

type Yielding = { scheduler?: { yield?: () => Promise<void> } };

/** A turn of the event loop for the page (scheduler.yield where there is one: it keeps its place). */
function yieldTurn(): Promise<void> {
  const scheduler = (globalThis as Yielding).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const timeout = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After a slice: one turn. After the first batch: until the page has shown it. react-query tells
 * its observers on a 0 ms timer (so a later 0 ms timer runs after React has rendered), then the
 * next frame paints; a hidden tab paints nothing, so the frame is awaited 100 ms at most.
 */
async function letPageWork(afterFirst: boolean): Promise<void> {
  if (!afterFirst) return yieldTurn();
  await timeout(0);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  await timeout(0);
}
