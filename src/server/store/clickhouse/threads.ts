/**
 * ClickHouse implementation of ThreadsStore: statistics computed per request in one SQL query
 * over the merged turn calls (shared/design/clickhouse.md §4.3), so nothing is kept in step
 * with writes and any replica answers the same. The numbers follow core/threadStats.ts:
 * `quantileExactInclusive` is numpy's linear method, as core/percentile.ts; ties break by id.
 *
 * Costs (threadCosts.ts) follow SQLite's rule. A sort by cost prices every matching thread in
 * the same query; any other sort pages first and prices only the page.
 *
 * Not here yet (refused, not approximated): the Weft text search, statistic ranges and
 * attribute filters.
 */
import type { ThreadRecord, ThreadsQuery, ThreadsStore } from '../Store.js';
import { num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';
import { UnsupportedCallsQuery } from './callsList.js';
import { USAGE_RULE } from '../../core/usage.js';
import { threadCostsSql } from './threadCosts.js';

/** One count of a usage entry `u` (a (model, raw JSON) tuple): a JSON number truncated to an integer, else 0 (core/usage.ts `usageCount`). */
const count = (key: string) => `if(JSONType(u.2, '${key}') IN ('Int64', 'UInt64', 'Double'), toInt64(JSONExtractFloat(u.2, '${key}')), 0)`;
const sum = (keys: readonly string[]) => `(${keys.map(count).join(' + ')})`;

/** Total tokens of one entry by the one usage rule (core/usage.ts USAGE_RULE): a positive reported total, else input + output. */
const ENTRY_TOKENS = `if(${count(USAGE_RULE.reportedTotal)} > 0, ${count(USAGE_RULE.reportedTotal)}, ${sum(USAGE_RULE.input)} + ${sum(USAGE_RULE.output)})`;

const TURN_TOKENS = `arraySum(u -> if(JSONType(u.2) = 'Object', ${ENTRY_TOKENS}, 0),
  JSONExtractKeysAndValuesRaw(ifNull(summary, '{}'), 'usage'))`;

const DURATION_MS = '(ended_at - started_at) / 1000';

const STATS = `
  thread_id,
  count() AS turn_count,
  countIf(ended_at IS NOT NULL) AS finished_turn_count,
  min(started_at) AS start_time,
  if(finished_turn_count > 0, max(ended_at), max(started_at)) AS last_updated,
  argMin(id, (started_at, id)) AS first_turn_id,
  if(finished_turn_count > 0, argMinIf(id, (-ifNull(ended_at, 0), id), ended_at IS NOT NULL), NULL) AS last_turn_id,
  if(finished_turn_count > 0, quantileExactInclusiveIf(0.5)(${DURATION_MS}, ended_at IS NOT NULL), NULL) AS p50_turn_duration_ms,
  if(finished_turn_count > 0, quantileExactInclusiveIf(0.99)(${DURATION_MS}, ended_at IS NOT NULL), NULL) AS p99_turn_duration_ms,
  countIf(exception IS NOT NULL OR JSONExtractInt(ifNull(summary, '{}'), 'status_counts', 'error') > 0) AS error_count,
  sum(${TURN_TOKENS}) AS total_tokens`;

/** Sort keys (a fixed whitelist: nothing from the request enters SQL). */
const SORTABLE = new Set([
  'thread_id',
  'turn_count',
  'start_time',
  'last_updated',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
  'error_count',
  'total_tokens',
  'total_cost',
]);

interface StatsRow {
  thread_id: string;
  turn_count: string;
  finished_turn_count: string;
  start_time: string;
  last_updated: string | null;
  first_turn_id: string;
  last_turn_id: string | null;
  p50_turn_duration_ms: number | null;
  p99_turn_duration_ms: number | null;
  error_count: string;
  total_tokens: number;
  total_cost?: number | null;
}

const fromRow = (r: StatsRow): ThreadRecord => ({
  threadId: r.thread_id,
  turnCount: num(r.turn_count),
  finishedTurnCount: num(r.finished_turn_count),
  startTime: num(r.start_time),
  lastUpdated: numOrNull(r.last_updated),
  firstTurnId: r.first_turn_id,
  lastTurnId: r.last_turn_id,
  p50TurnDurationMs: r.p50_turn_duration_ms,
  p99TurnDurationMs: r.p99_turn_duration_ms,
  errorCount: num(r.error_count),
  totalTokens: num(r.total_tokens),
  totalCost: r.total_cost ?? null,
});

/** The statistics columns, as the stats query names them. */
const STATS_NAMES = [
  'thread_id',
  'turn_count',
  'finished_turn_count',
  'start_time',
  'last_updated',
  'first_turn_id',
  'last_turn_id',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
  'error_count',
  'total_tokens',
];

function compile(q: ThreadsQuery): { sql: string; params: Params; where: string } {
  if (q.search || q.min || q.max || (q.attributes && Object.keys(q.attributes).length)) {
    throw new UnsupportedCallsQuery('The ClickHouse store does not filter threads by search, ranges or attributes yet.');
  }
  const params: Params = { p: q.projectId };
  // A turn is a call whose turn_id is its own id; only live, started ones count.
  const where = ['project_id = {p:String}', 'started_at IS NOT NULL', 'deleted_at IS NULL', 'turn_id = id', "ifNull(thread_id, '') != ''"];
  if (q.afterMicros != null) {
    where.push('started_at > {after:Int64}');
    params.after = q.afterMicros;
  }
  if (q.beforeMicros != null) {
    where.push('started_at < {before:Int64}');
    params.before = q.beforeMicros;
  }
  if (q.threadIds) {
    where.push('thread_id IN {threads:Array(String)}');
    params.threads = q.threadIds;
  }
  return { sql: `SELECT ${STATS} FROM calls FINAL WHERE ${where.join(' AND ')} GROUP BY thread_id`, params, where: where.join(' AND ') };
}

export class ClickHouseThreadsStore implements ThreadsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async *queryThreads(q: ThreadsQuery): AsyncIterable<ThreadRecord> {
    const { sql: statsSql, params, where } = compile(q);
    const byCost = q.sortBy.some((s) => s.field === 'total_cost');
    // Sorting by cost prices every matching thread; otherwise only the page is priced, below.
    const sql = byCost
      ? `SELECT ${STATS_NAMES.map((c) => `s.${c} AS ${c}`).join(', ')}, c.total_cost AS total_cost
         FROM (${statsSql}) AS s LEFT JOIN (${threadCostsSql(where)}) AS c ON c.thread_id = s.thread_id`
      : statsSql;
    // NULLs sort first ascending and last descending, as the SQLite store's comparison does.
    const order = q.sortBy.map(({ field, direction }) => {
      if (!SORTABLE.has(field)) throw new UnsupportedCallsQuery(`The ClickHouse store does not sort threads by "${field}" yet.`);
      return direction === 'desc' ? `${field} DESC NULLS LAST` : `${field} ASC NULLS FIRST`;
    });
    order.push('thread_id ASC');
    params.limit = q.limit ?? 0;
    params.offset = q.offset ?? 0;
    const limit = q.limit != null ? 'LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : 'LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
    if (byCost) {
      for await (const row of this.#db.stream<StatsRow>(`${sql} ORDER BY ${order.join(', ')} ${limit}`, params)) yield fromRow(row);
      return;
    }
    const page = (await this.#db.all<StatsRow>(`${sql} ORDER BY ${order.join(', ')} ${limit}`, params)).map(fromRow);
    if (page.length > 0) {
      const costs = await this.#db.all<{ thread_id: string; total_cost: number }>(
        threadCostsSql(`${where} AND thread_id IN {page:Array(String)}`),
        { ...params, page: page.map((t) => t.threadId) },
      );
      const byThread = new Map(costs.map((c) => [c.thread_id, c.total_cost]));
      for (const t of page) t.totalCost = byThread.get(t.threadId) ?? null;
    }
    yield* page;
  }

  async countThreads(q: ThreadsQuery): Promise<number> {
    const { sql, params } = compile(q);
    return num((await this.#db.get<{ n: string }>(`SELECT count() AS n FROM (${sql})`, params))?.n ?? 0);
  }

  async previews(projectId: string, ids: { firstInput: string[]; lastOutput: string[] }) {
    const get = async (column: 'inputs' | 'output', list: string[]) => {
      const out = new Map<string, string | null>();
      if (list.length === 0) return out;
      const rows = await this.#db.all<{ id: string; text: string | null }>(
        `SELECT id, substringUTF8(${column}, 1, 300) AS text FROM calls FINAL WHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
        { p: projectId, ids: list },
      );
      for (const r of rows) out.set(r.id, r.text);
      return out;
    };
    return { firstInput: await get('inputs', ids.firstInput), lastOutput: await get('output', ids.lastOutput) };
  }
}
