/**
 * The checker derived from a zod schema (fastValidator.ts) against zod itself: whenever it
 * answers, zod accepts the same body and zod's output is its answer minus the unknown keys zod
 * strips. Checked on the hot endpoints' request schemas and on small schemas of every kind it
 * walks, with many generated valid and broken bodies; see docs/architecture.md "Fast input checks".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallEndReq, CallStartReq, CallUpsertBatchReq } from '../../contract/calls.js';
import { PredictionCreateReq, PredictionFinishReq } from '../../contract/predictions.js';
import { ScoreCreateReq } from '../../contract/scores.js';
import { toEndWrite, toStartWrite } from '../domain/calls/calls.js';
import { fastValidator } from './fastValidator.js';

type Json = Record<string, unknown>;

const start = (): Json => ({
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
  unknown_newer_field: 'kept by the checker, stripped by zod, read by neither',
});
const end = (): Json => ({
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
const path = { entity: 'team', project: 'proj' };
const prediction = (): Json => ({
  ...path,
  model: 'weave:///team/proj/object/model:abc',
  inputs: { question: 'why?', n: 3, nested: { list: [1, 'two', null, true] } },
  output: { answer: 42, parts: ['a', { b: -1.5e-3 }] },
  evaluation_run_id: 'run-1',
  unknown_newer_field: 'stripped by zod',
});
const score = (): Json => ({
  ...path,
  prediction_id: 'pred-1',
  scorer: 'weave:///team/proj/object/exact:def',
  value: 0.75,
  evaluation_run_id: null,
});
const finish = (): Json => ({ ...path, prediction_id: 'pred-1', output: 'final' });
const batch = (): Json => ({
  batch: [
    { mode: 'start', req: { start: start() } },
    { mode: 'end', req: { end: end() } },
  ],
});

const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);

/** Bad or edge values fields are tried with (undefined: the field removed). */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1.5,
  2 ** 60,
  -1,
  Infinity,
  NaN,
  true,
  '',
  'x',
  'start',
  'end',
  'x'.repeat(129),
  'x'.repeat(1025),
  'x'.repeat(2049),
  '😀'.repeat(100),
  'no/slash/twice',
  'a b/c',
  'a/b',
  '2026-02-30T00:00:00Z',
  '2026-01-01',
  ' 2026-01-01T00:00:00Z ',
  [],
  [1],
  [Infinity],
  {},
  { a: 1 },
  { a: { b: NaN } },
  JSON.parse('{"__proto__": {"a": 1}}'),
  { nested: JSON.parse('{"__proto__": 1}') },
  { m: { prompt_tokens: 1.5 } },
  { m: { prompt_tokens: '1' } },
  { m: null },
  { m: [] },
  { success: null },
  deep(10),
  deep(80),
  BigInt(1),
];

/** Every path to a field (and to the fields of nested objects and arrays) of `value`. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Json).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function withValue(body: Json, at: string[], value: unknown): Json {
  const copy = structuredClone(body);
  let target = copy;
  for (const k of at.slice(0, -1)) target = target[k] as Json;
  if (value === undefined) delete target[at.at(-1)!];
  else target[at.at(-1)!] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
  return copy;
}

/** zod's output, found in the checker's answer: the same values, where the answer may have more (unknown) keys. */
function expectWithin(zodOut: unknown, answer: unknown, at = '$'): void {
  if (Array.isArray(zodOut)) {
    expect(Array.isArray(answer) && answer.length === zodOut.length, at).toBe(true);
    zodOut.forEach((item, i) => expectWithin(item, (answer as unknown[])[i], `${at}[${i}]`));
  } else if (typeof zodOut === 'object' && zodOut !== null) {
    expect(typeof answer === 'object' && answer !== null && !Array.isArray(answer), at).toBe(true);
    for (const [k, v] of Object.entries(zodOut)) {
      expect(v === undefined || Object.hasOwn(answer as object, k), `${at}.${k}`).toBe(true);
      expectWithin(v, (answer as Json)[k], `${at}.${k}`);
    }
  } else expect(Object.is(zodOut, answer), `${at}: zod ${String(zodOut)}, checker ${String(answer)}`).toBe(true);
}

/** One body: whatever the checker accepts, zod accepts, with its output within the answer. */
function agree(schema: z.ZodType, check: (raw: Json) => unknown, body: Json): 'fast' | 'zod' {
  const zod = schema.safeParse(body);
  const copy = structuredClone(body);
  const answer = check(copy);
  if (answer === null) {
    // A body left to zod is left as it came: no default filled on the way.
    expect(copy).toEqual(body);
    return 'zod';
  }
  const shown = JSON.stringify(body, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  expect(zod.success, `zod refuses what the checker accepted: ${shown}`).toBe(true);
  expect(answer).toBe(copy);
  expectWithin(zod.data, answer);
  return 'fast';
}

const ROUTES: [string, z.ZodType, () => Json][] = [
  ['call start', CallStartReq, () => ({ start: start() })],
  ['call end', CallEndReq, () => ({ end: end() })],
  ['call upsert batch', CallUpsertBatchReq, batch],
  ['prediction create', PredictionCreateReq, prediction],
  ['score create', ScoreCreateReq, score],
  ['prediction finish', PredictionFinishReq, finish],
];

/** Bodies derived from a valid one: a few fields replaced, removed, or unknown ones added. */
function brokenBodies(valid: () => Json): fc.Arbitrary<Json> {
  const at = paths(valid());
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...VALUES) },
    { weight: 1, arbitrary: fc.jsonValue() },
    { weight: 1, arbitrary: fc.anything() },
  );
  const edit = fc.tuple(fc.constantFrom(...at), value, fc.boolean());
  return fc.array(edit, { minLength: 0, maxLength: 3 }).map((edits) => {
    let body = valid();
    for (const [where, v, newKey] of edits) {
      const target = newKey ? [...where.slice(0, -1), `extra_${where.at(-1)}`] : where;
      try {
        body = withValue(body, target, v);
      } catch {
        // The path went away with an earlier edit.
      }
    }
    return body;
  });
}

describe('the checker derived from a request schema', () => {
  it.each(ROUTES)('answers for a valid %s body', (_, schema, valid) => {
    expect(agree(schema, fastValidator(schema), valid())).toBe('fast');
  });

  it('answers for minimal bodies, with zod’s defaults filled in', () => {
    const minimalStart = { project_id: 'a/b', op_name: 'op', started_at: '2026-01-01T00:00:00Z' };
    const started = fastValidator(CallStartReq)({ start: { ...minimalStart } });
    expect(started).toEqual({ start: { ...minimalStart, attributes: {}, inputs: {} } });
    const minimalEnd = { project_id: 'a/b', id: 'i', ended_at: '2026-01-01T00:00:00Z' };
    expect(fastValidator(CallEndReq)({ end: { ...minimalEnd } })).toEqual({ end: { ...minimalEnd, summary: {} } });
    expect(agree(PredictionCreateReq, fastValidator(PredictionCreateReq), { ...path, model: 'm', inputs: {}, output: null })).toBe('fast');
    expect(agree(ScoreCreateReq, fastValidator(ScoreCreateReq), { ...path, prediction_id: 'p', scorer: 's', value: false })).toBe('fast');
    expect(agree(PredictionFinishReq, fastValidator(PredictionFinishReq), { ...path, prediction_id: 'p' })).toBe('fast');
    expect(agree(CallUpsertBatchReq, fastValidator(CallUpsertBatchReq), { batch: [] })).toBe('fast');
  });

  it('gives the handlers the same call writes as zod', () => {
    const write = (s: Json) => ({ ...toStartWrite(s as never, 'user'), id: s.id, traceId: s.trace_id });
    const body = batch();
    const fast = fastValidator(CallUpsertBatchReq)(structuredClone(body))!;
    const zod = CallUpsertBatchReq.parse(body);
    const writes = (b: typeof zod) => b.batch.map((item) => (item.mode === 'start' ? write(item.req.start) : toEndWrite(item.req.end)));
    expect(writes(fast)).toEqual(writes(zod));
  });

  it.each(ROUTES)('never accepts a %s body zod refuses, whatever one field holds', (_, schema, valid) => {
    const check = fastValidator(schema);
    const outcomes = { fast: 0, zod: 0 };
    // A batch's items down to their fields (deeper ones are the start and end cases').
    const fields = paths(valid()).filter((at) => at.length <= 5);
    for (const at of fields) for (const value of VALUES) outcomes[agree(schema, check, withValue(valid(), at, value))]++;
    // Not vacuous: the values both break bodies and leave some valid.
    expect(outcomes.fast).toBeGreaterThan(0);
    expect(outcomes.zod).toBeGreaterThan(10);
  });

  it.each(ROUTES)('agrees with zod on generated %s bodies', (_, schema, valid) => {
    const check = fastValidator(schema);
    const outcomes = { fast: 0, zod: 0 };
    fc.assert(
      fc.property(brokenBodies(valid), (body) => {
        outcomes[agree(schema, check, body)]++;
      }),
      { numRuns: 200 },
    );
    expect(outcomes.fast).toBeGreaterThan(0);
    expect(outcomes.zod).toBeGreaterThan(0);
  });

  it('leaves an object with a "__proto__" key to zod, which drops that key', () => {
    const body = { start: { ...start(), inputs: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Json } };
    expect(fastValidator(CallStartReq)(body)).toBeNull();
    expect(fastValidator(PredictionCreateReq)({ ...prediction(), output: JSON.parse('{"a": {"__proto__": 1}}') as Json })).toBeNull();
  });

  it('fills no default of a body it then leaves to zod', () => {
    const body = {
      batch: [{ mode: 'start', req: { start: { project_id: 'a/b', op_name: 'op', started_at: '2026-01-01T00:00:00Z' } } }, { mode: 'end' }],
    };
    const copy = structuredClone(body);
    expect(fastValidator(CallUpsertBatchReq)(copy)).toBeNull();
    expect(copy).toEqual(body);
  });
});

describe('the checker derived from any schema', () => {
  const Tree: z.ZodType<unknown> = z.lazy(() => z.union([z.number().int().min(0), z.array(Tree).max(3)]));
  const SCHEMAS: [string, z.ZodType, Json][] = [
    [
      'strings',
      z.object({ s: z.string().min(2).max(4), r: z.string().regex(/^a+$/g), e: z.enum(['x', 'y']), l: z.literal(7) }),
      { s: 'abcd', r: 'aa', e: 'x', l: 7 },
    ],
    [
      'numbers',
      z.object({ i: z.number().int().gt(0).lte(10), f: z.number().gte(-1).lt(1), n: z.int().nullish(), b: z.boolean() }),
      { i: 3, f: 0.5, n: null, b: true },
    ],
    [
      'objects',
      z.object({
        strict: z.strictObject({ a: z.string() }),
        loose: z.looseObject({ a: z.string().optional() }),
        d: z.string().default('dflt'),
      }),
      { strict: { a: 'x' }, loose: { b: 1 }, d: 'given' },
    ],
    [
      'unions',
      z.object({
        u: z.union([z.string(), z.array(z.number())]),
        // Members whose output is their input (a strict and a loose object): zod may take either.
        mixed: z.union([z.strictObject({ a: z.string() }), z.looseObject({ b: z.string() })]),
        tagged: z.discriminatedUnion('k', [z.object({ k: z.literal('a'), x: z.string().default('d') }), z.object({ k: z.literal('b') })]),
      }),
      { u: [1, 2], mixed: { a: 'x' }, tagged: { k: 'a' } },
    ],
    [
      'collections',
      z.object({ list: z.array(z.string()).min(1).max(2), map: z.record(z.string(), z.number()), tree: Tree }),
      { list: ['a'], map: { a: 1 }, tree: [1, [2, []]] },
    ],
    [
      'what it leaves to zod',
      z.object({
        t: z
          .string()
          .transform((s) => s.trim())
          .optional(),
        r: z
          .string()
          .refine((s) => s !== 'no')
          .optional(),
        p: z.string().pipe(z.string()).optional(),
      }),
      { t: ' x ' },
    ],
  ];

  it.each(SCHEMAS)('agrees with zod on generated bodies of %s', (_, schema, valid) => {
    const check = fastValidator(schema);
    const outcomes = { fast: 0, zod: 0 };
    fc.assert(
      fc.property(
        brokenBodies(() => structuredClone(valid)),
        (body) => {
          outcomes[agree(schema, check, body)]++;
        },
      ),
      { numRuns: 200 },
    );
    expect(outcomes.zod).toBeGreaterThan(0);
  });

  it('answers where it can see through the schema, and fills defaults', () => {
    for (const [name, schema, valid] of SCHEMAS.slice(0, -1))
      expect(agree(schema, fastValidator(schema), structuredClone(valid)), name).toBe('fast');
    expect(fastValidator(SCHEMAS[2]![1])({ strict: { a: 'x' }, loose: {} })).toMatchObject({ d: 'dflt' });
    expect(fastValidator(SCHEMAS[3]![1])({ u: 'x', mixed: { b: 'y' }, tagged: { k: 'a' } })).toMatchObject({ tagged: { k: 'a', x: 'd' } });
  });

  it('leaves to zod what it cannot see through', () => {
    expect(fastValidator(SCHEMAS[5]![1])({ t: ' x ' })).toBeNull();
    // Absent optional fields need no look inside.
    expect(agree(SCHEMAS[5]![1], fastValidator(SCHEMAS[5]![1]), {})).toBe('fast');
  });

  it('counts string lengths the way zod does, or leaves them to zod', () => {
    const check = fastValidator(z.object({ s: z.string().min(2).max(3) }));
    // zod counts code points: three emoji are six UTF-16 units, and within max 3.
    expect(z.object({ s: z.string().max(3) }).safeParse({ s: '😀😀😀' }).success).toBe(true);
    expect(check({ s: '😀😀😀' })).toBeNull();
    // Two units may be one character: below `2 × min` units the count is zod's.
    expect(check({ s: 'ab' })).toBeNull();
    expect(fastValidator(z.object({ s: z.string().min(1).max(3) }))({ s: 'ab' })).not.toBeNull();
  });
});
