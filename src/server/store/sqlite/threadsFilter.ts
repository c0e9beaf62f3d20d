/**
 * The WHERE clause of a thread query in SQLite SQL: the neutral plan of
 * query/threadsFilter.ts, with content search through the `thread_search` FTS5 index and
 * attribute values through the `thread_attributes` leaves (threadExtras.ts).
 *
 * Contract: `compileThreadFilter(q, alias)` reads `alias.project_id` and `alias.thread_id`, so it
 * works over `thread_stats` and over `calls`; bounds need `thread_stats` columns and are only
 * compiled when present. SQL text holds fixed names only; every value is a bound parameter.
 */
import type { ThreadsQuery } from '../Store.js';
import { planThreadsFilter, type RangeField } from '../query/threadsFilter.js';
import { searchClause } from './callSearch.js';
import { jsonPath } from './jsonSql.js';
import { ftsQuery, MAX_INDEXED_ATTRIBUTE_CHARS } from './threadExtras.js';
import { threadCostSql } from './usageSql.js';

/** Range fields as thread_stats expressions (cost is priced on the fly). */
const RANGE_SQL: Record<RangeField, (alias: string) => string> = {
  turn_count: (a) => `${a}.turn_count`,
  p50_turn_duration_ms: (a) => `${a}.p50_turn_duration_ms`,
  p99_turn_duration_ms: (a) => `${a}.p99_turn_duration_ms`,
  error_count: (a) => `${a}.error_count`,
  total_tokens: (a) => `${a}.total_tokens`,
  total_cost: (a) => threadCostSql(a),
};

/** Booleans compare as SQLite's json_extract gives them: 1 and 0. */
const attributeValue = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/** The filter as SQL over rows aliased `alias` that have project_id and thread_id. */
export function compileThreadFilter(q: ThreadsQuery, alias: string): { sql: string; params: unknown[] } {
  const plan = planThreadsFilter(q);
  const where = [`${alias}.project_id = ?`];
  const params: unknown[] = [plan.projectId];
  if (plan.threadIds) {
    // One JSON array parameter, so no list can pass SQLite's bound-variable limit.
    where.push(`${alias}.thread_id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(plan.threadIds));
  }
  if (plan.search) {
    const any = [`${alias}.thread_id = ?`];
    params.push(plan.search.text);
    if (plan.search.words.length > 0) {
      // `+project_id` in both subqueries: the index's matches drive (by doc_id, by rowid), not a
      // walk of every document or turn of the project (docs/search.md "At scale").
      any.push(`${alias}.thread_id IN (SELECT d.thread_id FROM thread_search_docs d
        WHERE +d.project_id = ? AND d.doc_id IN (SELECT rowid FROM thread_search WHERE thread_search MATCH ?))`);
      params.push(plan.projectId, ftsQuery(plan.search.words));
    }
    if (plan.search.substring) {
      // Some live turn holds the text as a substring (the calls' index, callSearch.ts).
      const clause = searchClause(plan.search.substring);
      any.push(`${alias}.thread_id IN (SELECT calls.thread_id FROM calls WHERE +calls.project_id = ? AND calls.turn_id = calls.id
        AND +calls.started_at IS NOT NULL AND calls.deleted_at IS NULL AND ${clause.sql})`);
      params.push(plan.projectId, ...clause.params);
    }
    where.push(`(${any.join(' OR ')})`);
  }
  const attributes = plan.attributes.map((a) => [jsonPath(a.path), attributeValue(a.value)] as const);
  if (attributes.length) {
    // Every attribute must hold on one same turn. The indexed leaves (thread_attributes) pick
    // the threads having each value on some turn; that is the answer for one attribute, and
    // for several the candidates' turns are checked together.
    const indexed = attributes.filter(([, v]) => typeof v !== 'string' || v.length <= MAX_INDEXED_ATTRIBUTE_CHARS);
    for (const [path, value] of indexed) {
      where.push(
        `${alias}.thread_id IN (SELECT a.thread_id FROM thread_attributes a WHERE a.project_id = ? AND a.path = ? AND a.value = ?)`,
      );
      params.push(plan.projectId, path, value);
    }
    if (attributes.length > 1 || indexed.length === 0) {
      const tests = attributes.map(() => 'json_extract(t.attributes, ?) = ?').join(' AND ');
      where.push(`EXISTS (SELECT 1 FROM calls t WHERE t.project_id = ${alias}.project_id AND t.thread_id = ${alias}.thread_id
        AND t.turn_id = t.id AND t.started_at IS NOT NULL AND t.deleted_at IS NULL AND ${tests})`);
      params.push(...attributes.flat());
    }
  }
  for (const [field, value] of plan.min) {
    where.push(`${RANGE_SQL[field](alias)} >= ?`);
    params.push(value);
  }
  for (const [field, value] of plan.max) {
    where.push(`${RANGE_SQL[field](alias)} <= ?`);
    params.push(value);
  }
  return { sql: where.join(' AND '), params };
}
