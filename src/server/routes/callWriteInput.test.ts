/**
 * The cheap parse of the ingest bodies (callWriteInput.ts) against the contract's zod schemas:
 * on valid bodies it must answer, and the writes built from its answer must equal those built
 * from zod's; on each of many broken bodies it must either leave the body to zod (null) or
 * answer only where zod accepts too, with the same writes. So no body it passes can skip a 422.
 */
import { describe, expect, it } from 'vitest';
import { CallEndReq, CallStartReq, CallUpsertBatchReq } from '../../contract/calls.js';
import { toEndWrite, toStartWrite } from '../domain/calls.js';
import { fastCallEndInput, fastCallStartInput, fastUpsertBatchInput } from './callWriteInput.js';

const start = () => ({
  project_id: 'team/proj',
  id: 'call-1',
  trace_id: 'trace-1',
  parent_id: null,
  thread_id: 'thread-1',
  turn_id: null,
  op_name: 'weave:///team/proj/op/predict:abc',
  display_name: 'Predict',
  started_at: '2026-01-01T00:00:00.123456Z',
  attributes: { weave: { client_version: '0.51.0' } },
  inputs: { question: 'why?', n: 3, nested: { ref: 'weave:///team/proj/object/x:1' } },
  otel_dump: null,
  wb_user_id: null,
  wb_run_id: 'run-1',
  wb_run_step: 4,
  unknown_newer_field: 'kept by the fast path, stripped by zod, read by neither',
});

const end = () => ({
  project_id: 'team/proj',
  id: 'call-1',
  trace_id: 'trace-1',
  is_eval: false,
  started_at: '2026-01-01T00:00:00Z',
  ended_at: '2026-01-01T00:00:01+02:00',
  exception: null,
  output: { answer: 42, list: [1, 'two', null] },
  summary: { usage: { 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, requests: 1, extra: 'x' } }, status_counts: { success: 1 } },
  wb_run_step_end: null,
});

type Json = Record<string, unknown>;

/** Bad or edge values every field is tried with. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  1.5,
  2 ** 60,
  -1,
  true,
  '',
  'x',
  'x'.repeat(129),
  'x'.repeat(1025),
  'x'.repeat(2049),
  'no/slash/twice',
  'a b/c',
  '2026-02-30T00:00:00Z',
  '2026-01-01',
  ' 2026-01-01T00:00:00Z ',
  [],
  [1],
  {},
  { a: 1 },
  JSON.parse('{"__proto__": {"a": 1}}'),
  { m: { prompt_tokens: 1.5 } },
  { m: { prompt_tokens: '1' } },
  { m: null },
  { m: [] },
  { m: 2 },
  { success: null },
];

/** Every path to a field (and to the fields of nested objects) of `value`. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Json).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function withValue(body: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(body);
  let target = copy;
  for (const k of path.slice(0, -1)) target = target[k] as Json;
  if (value === undefined) delete target[path.at(-1)!];
  else target[path.at(-1)!] = structuredClone(value);
  return copy;
}

type Start = Parameters<typeof toStartWrite>[0];
type End = Parameters<typeof toEndWrite>[0];

/** The write the handler builds from a start (what it reads of it), generated ids named alike. */
const startWrite = (s: Start) => ({ ...toStartWrite(s, 'user'), id: s.id ?? 'generated', traceId: s.trace_id ?? 'generated' });
const startWrites = (input: { start: Start }) => startWrite(input.start);
const endWrites = (input: { end: End }) => toEndWrite(input.end);
const batchWrites = (input: { batch: { mode: string; req: Json }[] }) =>
  input.batch.map((item) => (item.mode === 'start' ? startWrite(item.req.start as Start) : toEndWrite(item.req.end as End)));

/** Checks one body: whatever the fast parse accepts, zod accepts with the same writes. */
function agree(
  body: Json,
  fast: (raw: Json) => unknown,
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  writes: (input: never) => unknown,
): 'fast' | 'zod' {
  const zod = schema.safeParse(structuredClone(body));
  const answer = fast(structuredClone(body));
  if (answer === null) return 'zod';
  expect(zod.success, `zod refuses what the fast parse accepted: ${JSON.stringify(body)}`).toBe(true);
  expect(writes(answer as never)).toEqual(writes(zod.data as never));
  return 'fast';
}

describe('the fast parse of call writes', () => {
  it('answers for valid starts, ends and batches, with the writes zod gives', () => {
    expect(agree({ start: start() }, fastCallStartInput, CallStartReq, startWrites)).toBe('fast');
    expect(agree({ end: end() }, fastCallEndInput, CallEndReq, endWrites)).toBe('fast');
    const minimalStart = { project_id: 'a/b', op_name: 'op', started_at: '2026-01-01T00:00:00Z', id: 'i', trace_id: 't' };
    expect(agree({ start: minimalStart }, fastCallStartInput, CallStartReq, startWrites)).toBe('fast');
    const minimalEnd = { project_id: 'a/b', id: 'i', ended_at: '2026-01-01T00:00:00Z' };
    expect(agree({ end: minimalEnd }, fastCallEndInput, CallEndReq, endWrites)).toBe('fast');
    const batch = {
      batch: [
        { mode: 'start', req: { start: start() } },
        { mode: 'end', req: { end: end() } },
      ],
    };
    expect(agree(batch, fastUpsertBatchInput, CallUpsertBatchReq, batchWrites)).toBe('fast');
    expect(agree({ batch: [] }, fastUpsertBatchInput, CallUpsertBatchReq, batchWrites)).toBe('fast');
  });

  it('never accepts a start zod refuses, whatever field is broken', () => {
    let fast = 0;
    for (const path of paths(start())) {
      for (const value of VALUES) {
        if (agree({ start: withValue(start(), path, value) }, fastCallStartInput, CallStartReq, startWrites) === 'fast') fast++;
      }
    }
    expect(fast).toBeGreaterThan(0);
  });

  it('never accepts an end zod refuses, whatever field is broken', () => {
    for (const path of paths(end())) {
      for (const value of VALUES) agree({ end: withValue(end(), path, value) }, fastCallEndInput, CallEndReq, endWrites);
    }
  });

  it('never accepts a batch zod refuses, whatever part of an item is broken', () => {
    const body = () => ({
      batch: [
        { mode: 'start', req: { start: start() } },
        { mode: 'end', req: { end: end() } },
      ],
    });
    for (const path of paths(body().batch[0]).concat(paths(body().batch[1]).map((p) => ['1', ...p]))) {
      const full = path[0] === '1' ? ['batch', ...path] : ['batch', '0', ...path];
      for (const value of VALUES) agree(withValue(body(), full, value), fastUpsertBatchInput, CallUpsertBatchReq, batchWrites);
    }
    for (const value of VALUES) {
      agree({ batch: value }, fastUpsertBatchInput, CallUpsertBatchReq, batchWrites);
      agree({ batch: [value] }, fastUpsertBatchInput, CallUpsertBatchReq, batchWrites);
    }
  });

  it('leaves an object with a "__proto__" key to zod, which drops that key', () => {
    const body = { start: { ...start(), inputs: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') } };
    expect(fastCallStartInput(body)).toBeNull();
  });
});
