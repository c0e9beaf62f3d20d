/**
 * The WHERE clause of a thread query (Weft's extensions beside the reference's thread ids):
 * content search through the `thread_search` FTS5 index, attribute values of any turn (through
 * the `thread_attributes` leaves), and
 * inclusive bounds on the statistics.
 *
 * Contract: `compileThreadFilter(q, alias)` reads `alias.project_id` and `alias.thread_id`, so it
 * works over `thread_stats` and over `calls`; bounds need `thread_stats` columns and are only
 * compiled when present. SQL text holds fixed names only; every value is a bound parameter.
 */
import type { ThreadRange } from '../../../contract/threads.js';
import type { ThreadRecord, ThreadsQuery } from '../Store.js';
import { jsonPath, splitFieldPath } from './callsFields.js';
import { ftsQuery, MAX_INDEXED_ATTRIBUTE_CHARS } from './threadExtras.js';
import { threadCostSql } from './usageSql.js';

/** Range fields as thread_stats expressions (cost is priced on the fly). */
const RANGE_SQL: Record<keyof ThreadRange, (alias: string) => string> = {
  turn_count: (a) => `${a}.turn_count`,
  p50_turn_duration_ms: (a) => `${a}.p50_turn_duration_ms`,
  p99_turn_duration_ms: (a) => `${a}.p99_turn_duration_ms`,
  error_count: (a) => `${a}.error_count`,
  total_tokens: (a) => `${a}.total_tokens`,
  total_cost: (a) => threadCostSql(a),
};

/** Range fields as record values, for statistics computed in memory. */
const RANGE_VALUE: Record<keyof ThreadRange, (r: ThreadRecord) => number | null> = {
  turn_count: (r) => r.turnCount,
  p50_turn_duration_ms: (r) => r.p50TurnDurationMs,
  p99_turn_duration_ms: (r) => r.p99TurnDurationMs,
  error_count: (r) => r.errorCount,
  total_tokens: (r) => r.totalTokens,
  total_cost: (r) => r.totalCost,
};

const bounded = (range: ThreadRange | null | undefined) =>
  Object.entries(range ?? {}).filter((e): e is [keyof ThreadRange, number] => typeof e[1] === 'number');

/** Booleans compare as SQLite's json_extract gives them: 1 and 0. */
const attributeValue = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/** The filter as SQL over rows aliased `alias` that have project_id and thread_id. */
export function compileThreadFilter(q: ThreadsQuery, alias: string): { sql: string; params: unknown[] } {
  const where = [`${alias}.project_id = ?`];
  const params: unknown[] = [q.projectId];
  if (q.threadIds) {
    // One JSON array parameter, so no list can pass SQLite's bound-variable limit.
    where.push(`${alias}.thread_id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(q.threadIds));
  }
  const search = q.search?.trim();
  if (search) {
    const match = ftsQuery(search);
    if (match) {
      where.push(`(${alias}.thread_id = ? OR ${alias}.thread_id IN (SELECT d.thread_id FROM thread_search_docs d
        WHERE d.project_id = ? AND d.doc_id IN (SELECT rowid FROM thread_search WHERE thread_search MATCH ?)))`);
      params.push(search, q.projectId, match);
    } else {
      where.push(`${alias}.thread_id = ?`);
      params.push(search);
    }
  }
  const attributes = Object.entries(q.attributes ?? {}).map(([k, v]) => [jsonPath(splitFieldPath(k)), attributeValue(v)] as const);
  if (attributes.length) {
    // Every attribute must hold on one same turn. The indexed leaves (thread_attributes) pick
    // the threads having each value on some turn; that is the answer for one attribute, and
    // for several the candidates' turns are checked together.
    const indexed = attributes.filter(([, v]) => typeof v !== 'string' || v.length <= MAX_INDEXED_ATTRIBUTE_CHARS);
    for (const [path, value] of indexed) {
      where.push(
        `${alias}.thread_id IN (SELECT a.thread_id FROM thread_attributes a WHERE a.project_id = ? AND a.path = ? AND a.value = ?)`,
      );
      params.push(q.projectId, path, value);
    }
    if (attributes.length > 1 || indexed.length === 0) {
      const tests = attributes.map(() => 'json_extract(t.attributes, ?) = ?').join(' AND ');
      where.push(`EXISTS (SELECT 1 FROM calls t WHERE t.project_id = ${alias}.project_id AND t.thread_id = ${alias}.thread_id
        AND t.turn_id = t.id AND t.started_at IS NOT NULL AND t.deleted_at IS NULL AND ${tests})`);
      params.push(...attributes.flat());
    }
  }
  for (const [field, value] of bounded(q.min)) {
    where.push(`${RANGE_SQL[field](alias)} >= ?`);
    params.push(value);
  }
  for (const [field, value] of bounded(q.max)) {
    where.push(`${RANGE_SQL[field](alias)} <= ?`);
    params.push(value);
  }
  return { sql: where.join(' AND '), params };
}

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
