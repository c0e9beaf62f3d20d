/**
 * THE usage-tokens rule: how a call's `summary.usage` (one object per model) becomes token
 * counts. It is written once, as data (`USAGE_RULE`), and read two ways:
 * - in JavaScript by `usageEntriesOf` / `usageTotalsOf` below, which everything that counts
 *   tokens in memory calls: `summary.weave` on every call read (domain/calls/calls.ts
 *   `withWeaveSummary`, so the calls table, trace, call detail and export read the server's
 *   numbers), costs, evaluation rows, the stats scan and rollups;
 * - in SQL by store/sqlite/usageSql.ts, which prints the same rule for sorting and filtering by
 *   `summary.weave.total_tokens`, thread statistics and thread usage. `usageSql.test.ts` runs
 *   both over a table of awkward usage shapes and checks they agree.
 * The dashboard never recomputes: it reads `summary.weave.{input,output,total}_tokens`,
 * `requests` and `model_tokens`, and the threads/evaluations/stats answers.
 *
 * The rule, per model entry (an entry that is not an object is skipped):
 * - a count is a JSON number, truncated to an integer; anything else (missing, null, string,
 *   boolean, object) counts as 0;
 * - input tokens = prompt_tokens + input_tokens, output tokens = completion_tokens +
 *   output_tokens. SDKs report one pair or the other; when both appear they are added, as the
 *   reference's stats query and cost maths do (weave/trace_server/calls_query_builder/
 *   usage_query_builder.py sums the aliases; its internal `gross_input_tokens` marker is not
 *   read). The reference UI instead takes `input_tokens ?? prompt_tokens`
 *   (Browse3/pages/CallPage/cost.ts); Weft follows the server, so a cost and its token count
 *   always agree;
 * - total tokens = `total_tokens` when it is a positive number, else input + output. The
 *   reference UI ignores `total_tokens` and its stats read it raw (missing = not counted); Weft
 *   derives one total so the calls table, trace, threads, export, evaluation rows and stats all
 *   show the same number for the same call. A reported 0 (image endpoints send it) falls back
 *   to the sum too;
 * - a call's totals are the sums over its models; a call without any usage entry has none
 *   (null), which is not the same as 0 tokens.
 * Neutral: imports nothing from domain/ or store/.
 */

import type { CallTokenTotals } from '../../contract/calls.js';

/** The rule as data: which usage keys feed which count. Both readers are generated from this. */
export const USAGE_RULE = {
  input: ['prompt_tokens', 'input_tokens'],
  output: ['completion_tokens', 'output_tokens'],
  /** Taken as the total when it is a positive number; otherwise input + output. */
  reportedTotal: 'total_tokens',
  requests: 'requests',
  cacheRead: 'cache_read_input_tokens',
  cacheCreation: 'cache_creation_input_tokens',
} as const;

export interface UsageEntry {
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  requests: number;
}

/** One count of a usage entry: a JSON number truncated to an integer, else 0. */
export const usageCount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const sumOf = (u: Record<string, unknown>, keys: readonly string[]) => keys.reduce((n, k) => n + usageCount(u[k]), 0);

/** The rule applied to one model's usage object. */
export function usageEntryOf(model: string, u: Record<string, unknown>): UsageEntry {
  const inputTokens = sumOf(u, USAGE_RULE.input);
  const outputTokens = sumOf(u, USAGE_RULE.output);
  const reported = usageCount(u[USAGE_RULE.reportedTotal]);
  return {
    model,
    inputTokens,
    outputTokens,
    totalTokens: reported > 0 ? reported : inputTokens + outputTokens,
    cacheReadInputTokens: usageCount(u[USAGE_RULE.cacheRead]),
    cacheCreationInputTokens: usageCount(u[USAGE_RULE.cacheCreation]),
    requests: usageCount(u[USAGE_RULE.requests]),
  };
}

/** The usage entries of a call's `summary.usage` JSON. */
export function usageEntries(usageJson: string | null | undefined): UsageEntry[] {
  if (!usageJson) return [];
  try {
    return usageEntriesOf(JSON.parse(usageJson));
  } catch {
    return [];
  }
}

/** The usage entries of a parsed `summary.usage`. */
export function usageEntriesOf(usage: unknown): UsageEntry[] {
  if (!isObject(usage)) return [];
  return Object.entries(usage).flatMap(([model, u]) => (isObject(u) ? [usageEntryOf(model, u)] : []));
}

/** A call's totals from its parsed `summary.usage`; null when it has no usage entry. */
export function usageTotalsOf(usage: unknown): CallTokenTotals | null {
  const entries = usageEntriesOf(usage);
  if (!entries.length) return null;
  const sum = (pick: (e: UsageEntry) => number) => entries.reduce((n, e) => n + pick(e), 0);
  return {
    input_tokens: sum((e) => e.inputTokens),
    output_tokens: sum((e) => e.outputTokens),
    total_tokens: sum((e) => e.totalTokens),
    requests: sum((e) => e.requests),
    // fromEntries defines own properties, so a model named `__proto__` stays a model.
    model_tokens: Object.fromEntries(
      entries.map((e) => [
        e.model,
        { input_tokens: e.inputTokens, output_tokens: e.outputTokens, total_tokens: e.totalTokens, requests: e.requests },
      ]),
    ),
  };
}
