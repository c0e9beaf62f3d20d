/**
 * The thread filters (Weft's extensions beside the reference's thread ids), backend-neutral:
 * what `search`, `attributes`, `min` and `max` mean. store/sqlite/threadsFilter.ts prints them.
 *
 * - `threadIds`: the thread is one of them; an empty list filters nothing, as the reference's
 *   threads query reads it (unlike `thread_ids` of a calls query, docs/reference/query-semantics.md).
 * - `search` (trimmed; blank means none): the thread id equals it, or every search word
 *   (`searchWords`) occurs as a word prefix in the string values of the thread's turns' inputs
 *   or outputs, case- and accent-insensitive (SQLite: FTS5, unicode61, diacritics removed).
 *   Without search words only the thread id is compared. Or, for a text of 3 or more characters,
 *   some live turn holds it as a substring, as the calls' `search` filter finds it (callsSearch.ts).
 * - `attributes`: some single turn (a visible call with a thread whose turn_id is its own id)
 *   has every listed value at its dotted path (core/fieldPath.ts) in its attributes; a boolean
 *   matches JSON true/false, a number matches a JSON number, a string a JSON string.
 * - `min`/`max`: inclusive bounds on the thread's statistics; a NULL statistic (an unpriced
 *   cost, a thread without usage) lies outside any bound.
 */
import type { ThreadRange } from '../../../contract/threads.js';
import { splitFieldPath } from '../../core/fieldPath.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';
import { substringSearch, type CallsSearch } from './callsSearch.js';

export type RangeField = keyof ThreadRange;

/** The bounds actually set, as [field, value] pairs. */
export const bounded = (range: ThreadRange | null | undefined): [RangeField, number][] =>
  Object.entries(range ?? {}).filter((e): e is [RangeField, number] => typeof e[1] === 'number');

/** One attribute test: the value at `path` of a turn's attributes. */
export interface AttributeTest {
  path: string[];
  value: string | number | boolean;
}

/**
 * The words of a search: whitespace-separated parts holding a letter or digit (a full-text
 * tokenizer drops the others), at most 16.
 */
export function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
}

export interface ThreadsFilterPlan {
  projectId: string;
  threadIds: string[] | null;
  search: { text: string; words: string[]; substring: CallsSearch | null } | null;
  attributes: AttributeTest[];
  min: [RangeField, number][];
  max: [RangeField, number][];
}

export function planThreadsFilter(q: ThreadsQuery): ThreadsFilterPlan {
  const search = q.search?.trim();
  return {
    projectId: q.projectId,
    threadIds: q.threadIds?.length ? q.threadIds : null,
    search: search ? { text: search, words: searchWords(search), substring: substringSearch(search) } : null,
    attributes: Object.entries(q.attributes ?? {}).map(([key, value]) => ({ path: splitFieldPath(key), value })),
    min: bounded(q.min),
    max: bounded(q.max),
  };
}

/** Range fields as record values, for statistics computed in memory. */
const RANGE_VALUE: Record<RangeField, (r: ThreadRecord) => number | null> = {
  turn_count: (r) => r.turnCount,
  p50_turn_duration_ms: (r) => r.p50TurnDurationMs,
  p99_turn_duration_ms: (r) => r.p99TurnDurationMs,
  error_count: (r) => r.errorCount,
  total_tokens: (r) => r.totalTokens,
  total_cost: (r) => r.totalCost,
};

/** Whether a record's statistics lie within the bounds (a NULL statistic is outside any bound). */
export function rangeMatches(r: ThreadRecord, min: ThreadRange | null | undefined, max: ThreadRange | null | undefined): boolean {
  for (const [field, value] of bounded(min)) {
    const v = RANGE_VALUE[field](r);
    if (v === null || v < value) return false;
  }
  for (const [field, value] of bounded(max)) {
    const v = RANGE_VALUE[field](r);
    if (v === null || v > value) return false;
  }
  return true;
}
