/**
 * The cheap parse of an evaluation logger's bodies (evaluationInput.ts) against the contract's
 * zod schemas: on valid bodies it must answer, with what zod gives; on each of many broken
 * bodies it must either leave the body to zod (null) or answer only where zod accepts too, with
 * the same input. So no body it passes can skip a 422.
 */
import { describe, expect, it } from 'vitest';
import { PredictionCreateReq, PredictionFinishReq } from '../../contract/predictions.js';
import { ScoreCreateReq } from '../../contract/scores.js';
import { fastPredictionCreateInput, fastPredictionFinishInput, fastScoreCreateInput } from './evaluationInput.js';

type Json = Record<string, unknown>;

const path = { entity: 'team', project: 'proj' };
const prediction = (): Json => ({
  ...path,
  model: 'weave:///team/proj/object/model:abc',
  inputs: { question: 'why?', n: 3, nested: { list: [1, 'two', null, true] } },
  output: { answer: 42, parts: ['a', { b: -1.5e-3 }] },
  evaluation_run_id: 'run-1',
  unknown_newer_field: 'stripped by both',
});
const score = (): Json => ({
  ...path,
  prediction_id: 'pred-1',
  scorer: 'weave:///team/proj/object/exact:def',
  value: 0.75,
  evaluation_run_id: null,
});
const finish = (): Json => ({ ...path, prediction_id: 'pred-1', output: 'final' });

const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);

/** Bad or edge values every field is tried with. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1.5,
  Infinity,
  -Infinity,
  NaN,
  true,
  '',
  'x',
  'a/b',
  'a b',
  ' x',
  [],
  [1, 'x', null],
  [Infinity],
  {},
  { a: 1 },
  { a: { b: NaN } },
  { a: undefined },
  JSON.parse('{"__proto__": {"a": 1}}'),
  { nested: JSON.parse('{"__proto__": 1}') },
  deep(10),
  deep(80),
  () => 1,
  BigInt(1),
];

type Schema = { safeParse(v: unknown): { success: boolean; data?: unknown } };

/** Checks one body: whatever the fast parse accepts, zod accepts and gives the same. */
function agree(body: Json, fast: (raw: Json) => unknown, schema: Schema): 'fast' | 'zod' {
  const zod = schema.safeParse(body);
  const answer = fast(body);
  if (answer === null) return 'zod';
  const shown = JSON.stringify(body, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  expect(zod.success, `zod refuses what the fast parse accepted: ${shown}`).toBe(true);
  expect(answer).toEqual(zod.data);
  return 'fast';
}

const CASES: [string, () => Json, (raw: Json) => unknown, Schema][] = [
  ['prediction create', prediction, fastPredictionCreateInput, PredictionCreateReq],
  ['score create', score, fastScoreCreateInput, ScoreCreateReq],
  ['prediction finish', finish, fastPredictionFinishInput, PredictionFinishReq],
];

describe('the fast parse of an evaluation logger’s bodies', () => {
  it.each(CASES)('answers for a valid %s body, with what zod gives', (_, body, fast, schema) => {
    expect(agree(body(), fast, schema)).toBe('fast');
  });

  it('answers for the minimal bodies too', () => {
    expect(agree({ ...path, model: 'm', inputs: {}, output: null }, fastPredictionCreateInput, PredictionCreateReq)).toBe('fast');
    expect(agree({ ...path, prediction_id: 'p', scorer: 's', value: false }, fastScoreCreateInput, ScoreCreateReq)).toBe('fast');
    expect(agree({ ...path, prediction_id: 'p' }, fastPredictionFinishInput, PredictionFinishReq)).toBe('fast');
  });

  it.each(CASES)('never accepts a %s body zod refuses, whatever one field holds', (_, body, fast, schema) => {
    let refusedByZod = 0;
    for (const key of [...Object.keys(body()), 'genai_span_ref']) {
      for (const value of VALUES) {
        const broken = { ...body(), [key]: value };
        if (value === undefined) delete broken[key];
        agree(broken, fast, schema);
        if (!schema.safeParse(broken).success) refusedByZod++;
      }
    }
    // The values above do break these bodies: the check is not vacuous.
    expect(refusedByZod).toBeGreaterThan(20);
  });

  it('leaves a body with span refs to zod', () => {
    const spans = { ...prediction(), genai_span_ref: [{ trace_id: 't', span_id: 's' }] };
    expect(fastPredictionCreateInput(spans)).toBeNull();
  });
});
