/**
 * The usage rule has two readers generated from one definition (core/usage.ts `USAGE_RULE`):
 * JavaScript for every read and SQL for sorting, filtering and thread statistics. These tests
 * run both over the same summaries and require the same numbers.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { usageTotalsOf } from '../../core/usage.js';
import {
  callInputTokensSql,
  callOutputTokensSql,
  callTokensSql,
  completionTokensSql,
  entryTotalTokensSql,
  promptTokensSql,
  USAGE_ENTRY_WHERE,
  usageEntriesSql,
} from './usageSql.js';

const db = new Database(':memory:');
afterAll(() => db.close());

/** What SQL says about one summary: the call's totals and each model's counts. */
function sqlTotals(summary: unknown) {
  const json = JSON.stringify(summary);
  const call = db
    .prepare(
      `SELECT ${callInputTokensSql('calls')} AS input, ${callOutputTokensSql('calls')} AS output, ${callTokensSql('calls')} AS total
       FROM (SELECT ? AS summary) calls`,
    )
    .get(json) as { input: number | null; output: number | null; total: number | null };
  const models = db
    .prepare(
      `SELECT u.key AS model, ${promptTokensSql('u.value')} AS input, ${completionTokensSql('u.value')} AS output, ${entryTotalTokensSql('u.value')} AS total
       FROM (SELECT ? AS summary) calls, ${usageEntriesSql('calls.summary')} WHERE ${USAGE_ENTRY_WHERE}`,
    )
    .all(json) as { model: string; input: number; output: number; total: number }[];
  return { call, models: Object.fromEntries(models.map((m) => [m.model, { input: m.input, output: m.output, total: m.total }])) };
}

/** What the JavaScript reader says about the same summary, in the same shape. */
function jsTotals(summary: { usage?: unknown }) {
  const t = usageTotalsOf(summary.usage);
  return {
    call: { input: t?.input_tokens ?? null, output: t?.output_tokens ?? null, total: t?.total_tokens ?? null },
    models: Object.fromEntries(
      Object.entries(t?.model_tokens ?? {}).map(([m, c]) => [m, { input: c.input_tokens, output: c.output_tokens, total: c.total_tokens }]),
    ),
  };
}

/** Awkward shapes met in the wild or by hand, with the totals the rule gives. */
type Expected = { input: number | null; output: number | null; total: number | null };
const SHAPES: [string, { usage?: unknown } | string, Expected][] = [
  [
    'OpenAI names with a total',
    { usage: { m: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
    { input: 10, output: 5, total: 15 },
  ],
  ['Anthropic names without a total', { usage: { m: { input_tokens: 7, output_tokens: 3 } } }, { input: 7, output: 3, total: 10 }],
  [
    'both pairs are added',
    { usage: { m: { prompt_tokens: 1, input_tokens: 2, completion_tokens: 3, output_tokens: 4 } } },
    { input: 3, output: 7, total: 10 },
  ],
  [
    'a reported total wins over the parts',
    { usage: { m: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 50 } } },
    { input: 1, output: 1, total: 50 },
  ],
  [
    'a zero total falls back to the parts',
    { usage: { m: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 0 } } },
    { input: 4, output: 2, total: 6 },
  ],
  ['a negative total falls back to the parts', { usage: { m: { prompt_tokens: 4, total_tokens: -3 } } }, { input: 4, output: 0, total: 4 }],
  [
    'a null total falls back',
    { usage: { m: { input_tokens: 2, output_tokens: 2, total_tokens: null } } },
    { input: 2, output: 2, total: 4 },
  ],
  [
    'strings and booleans count 0',
    { usage: { m: { prompt_tokens: '12', completion_tokens: true, total_tokens: '99' } } },
    { input: 0, output: 0, total: 0 },
  ],
  [
    'non-integers are truncated',
    { usage: { m: { prompt_tokens: 2.9, completion_tokens: 1.5, total_tokens: 7.99 } } },
    { input: 2, output: 1, total: 7 },
  ],
  ['nested objects count 0', { usage: { m: { prompt_tokens: { n: 3 }, completion_tokens: [4] } } }, { input: 0, output: 0, total: 0 }],
  [
    'models are summed',
    { usage: { a: { prompt_tokens: 1, completion_tokens: 1 }, b: { input_tokens: 5, output_tokens: 5, total_tokens: 11 } } },
    { input: 6, output: 6, total: 13 },
  ],
  [
    'non-object entries are not models',
    { usage: { a: { prompt_tokens: 3 }, junk: 5, list: [1, 2], nil: null } },
    { input: 3, output: 0, total: 3 },
  ],
  ['an empty entry is a model with 0 tokens', { usage: { m: {} } }, { input: 0, output: 0, total: 0 }],
  ['usage as a list has no models', { usage: [{ prompt_tokens: 3 }] }, { input: null, output: null, total: null }],
  ['usage of no model', { usage: {} }, { input: null, output: null, total: null }],
  ['no usage', {}, { input: null, output: null, total: null }],
  ['usage null', { usage: null }, { input: null, output: null, total: null }],
  // As JSON text: an object literal would set the prototype instead of a key.
  [
    'a model named like a prototype key',
    '{"usage":{"__proto__":{"prompt_tokens":2},"constructor":{"output_tokens":1}}}',
    { input: 2, output: 1, total: 3 },
  ],
  [
    'model names with dots and quotes',
    { usage: { 'openai/gpt-4o.mini"x': { prompt_tokens: 8, total_tokens: 9 } } },
    { input: 8, output: 0, total: 9 },
  ],
  [
    'requests and cache counts do not enter the total',
    { usage: { m: { requests: 3, cache_read_input_tokens: 100, prompt_tokens: 1 } } },
    { input: 1, output: 0, total: 1 },
  ],
];

describe('usage rule: SQL and JavaScript agree', () => {
  it.each(SHAPES)('%s', (_name, shape, expected) => {
    // Parsed from JSON, as a request body is.
    const summary = JSON.parse(typeof shape === 'string' ? shape : JSON.stringify(shape)) as { usage?: unknown };
    expect(jsTotals(summary).call).toEqual(expected);
    expect(sqlTotals(summary)).toEqual(jsTotals(summary));
  });

  it('agrees on arbitrary usage maps', () => {
    const count = fc.oneof(
      fc.integer({ min: -1000, max: 1_000_000 }),
      fc.double({ min: -10, max: 1e6, noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
      fc.string({ maxLength: 3 }),
      fc.boolean(),
    );
    const entry = fc.record(
      {
        prompt_tokens: count,
        input_tokens: count,
        completion_tokens: count,
        output_tokens: count,
        total_tokens: count,
        requests: count,
      },
      { requiredKeys: [] },
    );
    const usage = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(entry, fc.integer(), fc.constant(null)), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(usage, (u) => {
        const summary = JSON.parse(JSON.stringify({ usage: u })) as { usage?: unknown };
        expect(sqlTotals(summary)).toEqual(jsTotals(summary));
      }),
      { numRuns: 300 },
    );
  });
});
