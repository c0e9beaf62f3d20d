/**
 * SQLite implementation of ThreadsStore.
 *
 * Unfiltered queries (the threads page) read `thread_stats`, which triggers mark stale and
 * `refreshDirtyThreads` recomputes inside every write transaction, so sorting 20,000 threads
 * by any statistic is one small indexed scan. A date filter changes which turns count, but
 * only for the threads whose turns cross one of its bounds: a thread whose turns all started
 * within the range has its thread_stats row there, so only the crossing threads (a few, for
 * any range over threads shorter than it) are computed from their turns' facts, and the two
 * sorted lists are merged (see #computeFiltered).
 */
import { computeThreadStats, type TurnFacts } from '../../core/threadStats.js';
import type { ThreadRecord, ThreadsQuery, ThreadsStore } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { pickPrice } from '../../core/pickPrice.js';
import { pricesFor } from './costs.js';
import { refreshThreadExtras } from './threadExtras.js';
import { rangeMatches } from '../query/threadsFilter.js';
import { compareThreads, threadSortColumn } from '../query/threadsOrder.js';
import { threadCostBySpans } from './threadCosts.js';
import { inOneSnapshot, keptCostsFresh, priceRefreshedThreads } from './threadCostsKept.js';
import { payloadSql } from './history/historyBlobs.js';
import { compileThreadFilter } from './threadsFilter.js';
import { callTokensSql, completionTokensSql, promptTokensSql, threadCostSql, USAGE_ENTRY_WHERE, usageEntriesSql } from './usageSql.js';

interface TurnRow {
  thread_id: string;
  id: string;
  started_at: number;
  ended_at: number | null;
  failed: number;
  tokens: number;
}

/** Per-turn facts, computed in SQL so only small rows leave SQLite. */
const TURN_FACTS_SQL = `SELECT thread_id, id, started_at, ended_at,
    (exception IS NOT NULL OR coalesce(json_extract(summary, '$.status_counts.error'), 0) > 0) AS failed,
    coalesce(${callTokensSql('calls')}, 0) AS tokens
  FROM calls`;

const TURN_WHERE =
  "project_id = ? AND turn_id = id AND thread_id IS NOT NULL AND thread_id != '' AND started_at IS NOT NULL AND deleted_at IS NULL";

const STATS_COLUMNS = `thread_id, turn_count, finished_turn_count, start_time, last_updated, first_turn_id,
  last_turn_id, p50_turn_duration_ms, p99_turn_duration_ms, error_count, total_tokens`;

/** Tokens per model of a thread (or of its turns in a range), to price it. */
interface ThreadUsage {
  thread_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
}

const toFacts = (r: TurnRow): TurnFacts => ({
  id: r.id,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  failed: r.failed === 1,
  tokens: r.tokens,
});

/** Recomputes the statistics of every thread marked stale. Call inside a write transaction. */
export function refreshDirtyThreads(db: SqliteDatabase): void {
  const dirty = db.all<{ project_id: string; thread_id: string }>('SELECT DISTINCT project_id, thread_id FROM dirty_threads');
  if (dirty.length === 0) return;
  const turnsOf = db.prepare(`${TURN_FACTS_SQL} WHERE ${TURN_WHERE} AND thread_id = ?`);
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO thread_stats (project_id, ${STATS_COLUMNS}, last_turn_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = db.prepare('DELETE FROM thread_stats WHERE project_id = ? AND thread_id = ?');
  for (const { project_id, thread_id } of dirty) {
    const turns = (turnsOf.all(project_id, thread_id) as TurnRow[]).map(toFacts);
    if (turns.length === 0) {
      remove.run(project_id, thread_id);
      continue;
    }
    const s = computeThreadStats(turns);
    upsert.run(
      project_id,
      thread_id,
      s.turnCount,
      s.finishedTurnCount,
      s.startTime,
      s.lastUpdated,
      s.firstTurnId,
      s.lastTurnId,
      s.p50TurnDurationMs,
      s.p99TurnDurationMs,
      s.errorCount,
      s.totalTokens,
      turns.reduce((latest, t) => Math.max(latest, t.startedAt), 0),
    );
  }
  refreshThreadExtras(db, dirty, `${TURN_FACTS_SQL} WHERE ${TURN_WHERE} AND thread_id = ?`);
  // After the usage it reads (threadExtras.ts): the kept cost of each thread still listed.
  priceRefreshedThreads(db, dirty);
  db.run('DELETE FROM dirty_threads');
}

interface StatsRow {
  thread_id: string;
  turn_count: number;
  finished_turn_count: number;
  start_time: number;
  last_updated: number | null;
  first_turn_id: string | null;
  last_turn_id: string | null;
  p50_turn_duration_ms: number | null;
  p99_turn_duration_ms: number | null;
  error_count: number;
  total_tokens: number;
  total_cost: number | null;
}

const fromStatsRow = (r: StatsRow): ThreadRecord => ({
  threadId: r.thread_id,
  turnCount: r.turn_count,
  finishedTurnCount: r.finished_turn_count,
  startTime: r.start_time,
  lastUpdated: r.last_updated,
  firstTurnId: r.first_turn_id,
  lastTurnId: r.last_turn_id,
  p50TurnDurationMs: r.p50_turn_duration_ms,
  p99TurnDurationMs: r.p99_turn_duration_ms,
  errorCount: r.error_count,
  totalTokens: r.total_tokens,
  totalCost: r.total_cost,
});

export class SqliteThreadsStore implements ThreadsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
    // Threads marked stale by a migration (search documents and usage added later) are
    // rebuilt once, here, rather than waiting for their next write.
    if (db.get('SELECT 1 FROM dirty_threads LIMIT 1')) db.transaction(() => refreshDirtyThreads(db));
  }

  async *queryThreads(q: ThreadsQuery): AsyncIterable<ThreadRecord> {
    if (q.afterMicros != null || q.beforeMicros != null) yield* await this.#inRange(q, q);
    else if (costDecides(q)) yield* this.#costOrdered(q, q);
    else yield* this.#readStats(q);
  }

  async countThreads(q: ThreadsQuery): Promise<number> {
    if (q.afterMicros != null || q.beforeMicros != null) {
      if (costDecides(q)) return (await this.#inRange(q, { sortBy: [], limit: null, offset: null })).length;
      const range = rangeOf(q);
      const inside = compileThreadFilter(q, 's');
      const n = this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM thread_stats s WHERE ${inside.sql} AND ${range.inside.sql}`, [
        ...inside.params,
        ...range.inside.params,
      ])!.n;
      return n + this.#crossing(q, range).filter((r) => rangeMatches(r, q.min, q.max)).length;
    }
    if (costDecides(q)) {
      return inOneSnapshot(this.#db, () => {
        const { sql, params } = this.#costOrderedSql({ ...q, sortBy: [] }, { sql: '1', params: [] });
        return this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM (${sql})`, params)!.n;
      });
    }
    const filter = compileThreadFilter(q, 's');
    return this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM thread_stats s WHERE ${filter.sql}`, filter.params)!.n;
  }

  async previews(projectId: string, ids: { firstInput: string[]; lastOutput: string[] }) {
    const get = (column: 'inputs' | 'output', list: string[]) => {
      const out = new Map<string, string | null>();
      if (list.length === 0) return out;
      const rows = this.#db.all<{ id: string; text: string | null }>(
        `SELECT id, substr(${payloadSql(column)}, 1, 300) AS text FROM calls WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))`,
        [projectId, JSON.stringify(list)],
      );
      for (const r of rows) out.set(r.id, r.text);
      return out;
    };
    return { firstInput: get('inputs', ids.firstInput), lastOutput: get('output', ids.lastOutput) };
  }

  /**
   * Sorting or bounding by cost: from the kept costs (threadCostsKept.ts) when they were priced
   * with the prices in force, an index walk; while a price change is being priced in, every
   * matching thread is priced in SQL (threadCosts.ts: the price spans are resolved once per
   * request, not per thread), then bounded, sorted and paged. `extra` narrows the rows (the
   * threads inside a date range).
   */
  #costOrdered(
    q: ThreadsQuery,
    page: Pick<ThreadsQuery, 'limit' | 'offset'>,
    extra: { sql: string; params: unknown[] } = { sql: '1', params: [] },
  ): ThreadRecord[] {
    return inOneSnapshot(this.#db, () => {
      const { sql, params } = this.#costOrderedSql(q, extra);
      return this.#db.all<StatsRow>(`${sql} LIMIT ? OFFSET ?`, [...params, page.limit ?? -1, page.offset ?? 0]).map(fromStatsRow);
    });
  }

  /** Call inside `inOneSnapshot`, with the query it answers. */
  #costOrderedSql(q: ThreadsQuery, extra: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
    const withoutCost = (r: ThreadsQuery['min']) => (r ? { ...r, total_cost: null } : r);
    const filter = compileThreadFilter({ ...q, min: withoutCost(q.min), max: withoutCost(q.max) }, 's');
    const kept = keptCostsFresh(this.#db, q.projectId);
    const cost = kept ? 's.priced_cost' : 'total_cost';
    const bounds = ['1'];
    const boundParams: unknown[] = [];
    if (q.min?.total_cost != null) {
      bounds.push(`${cost} >= ?`);
      boundParams.push(q.min.total_cost);
    }
    if (q.max?.total_cost != null) {
      bounds.push(`${cost} <= ?`);
      boundParams.push(q.max.total_cost);
    }
    if (kept) {
      // Flat, ordered by the column itself, so thread_stats_by_cost(_desc) gives the order.
      return {
        sql: `SELECT ${STATS_COLUMNS}, s.priced_cost AS total_cost FROM thread_stats s
          WHERE ${filter.sql} AND ${extra.sql} AND ${bounds.join(' AND ')} ORDER BY ${orderSql(q.sortBy, 's.priced_cost')}`,
        params: [...filter.params, ...extra.params, ...boundParams],
      };
    }
    const priced = threadCostBySpans(this.#db, q.projectId, 's');
    return {
      sql: `${priced.with} SELECT * FROM (SELECT ${STATS_COLUMNS}, ${priced.cost} AS total_cost FROM thread_stats s
        WHERE ${filter.sql} AND ${extra.sql}) WHERE ${bounds.join(' AND ')} ORDER BY ${orderSql(q.sortBy)}`,
      params: [priced.param, ...filter.params, ...extra.params, ...boundParams],
    };
  }

  /**
   * Sets each record's cost: its usage per model, each model priced at the record's start
   * (threadCostSql's rule, so a thread costs the same in memory as in SQL); NULL when none of
   * its models has a price.
   */
  async #price(projectId: string, records: ThreadRecord[], usage: ThreadUsage[]): Promise<void> {
    const prices = pricesFor(this.#db, { projectId, llmIds: [...new Set(usage.map((u) => u.model))] });
    const byThread = new Map<string, ThreadUsage[]>();
    for (const u of usage) {
      const list = byThread.get(u.thread_id);
      if (list) list.push(u);
      else byThread.set(u.thread_id, [u]);
    }
    for (const r of records) {
      let cost: number | null = null;
      for (const u of byThread.get(r.threadId) ?? []) {
        const price = pickPrice({ prices, llmId: u.model, startedAt: r.startTime, projectId });
        if (price) cost = (cost ?? 0) + u.prompt_tokens * price.promptTokenCost + u.completion_tokens * price.completionTokenCost;
      }
      r.totalCost = cost;
    }
  }

  async *#readStats(q: ThreadsQuery): AsyncGenerator<ThreadRecord> {
    const { sql, params } = statsPageSql(q);
    for await (const row of this.#db.stream<StatsRow>(sql, params)) yield fromStatsRow(row);
  }

  /**
   * Threads with the statistics of their turns that started within the date range, filtered,
   * sorted and paged as `page` says. Threads whose turns all started inside the range are read
   * from thread_stats (in SQL, sorted and cut to the page unless cost decides); the threads
   * crossing a bound are computed from the facts of their turns inside; both are merged in
   * the one order. A thread's cost in a range is its usage there priced at its first turn
   * there, which for a thread wholly inside is its cost without the filter.
   */
  async #inRange(q: ThreadsQuery, page: Pick<ThreadsQuery, 'sortBy' | 'limit' | 'offset'>): Promise<ThreadRecord[]> {
    const range = rangeOf(q);
    const crossing = this.#crossing(q, range);
    const start = page.offset ?? 0;
    const end = page.limit == null ? undefined : start + page.limit;
    const compare = compareThreads(page.sortBy);
    if (costDecides(q)) {
      await this.#priceInRange(q.projectId, crossing, range);
      const inside = this.#costOrdered({ ...q, sortBy: page.sortBy }, { limit: end ?? null, offset: 0 }, range.inside);
      return [...inside, ...crossing.filter((r) => rangeMatches(r, q.min, q.max))].sort(compare).slice(start, end);
    }
    const filter = compileThreadFilter(q, 's');
    const inside = this.#db
      .all<StatsRow>(
        `SELECT ${STATS_COLUMNS}, NULL AS total_cost FROM thread_stats s WHERE ${filter.sql} AND ${range.inside.sql}
         ORDER BY ${orderSql(page.sortBy)} LIMIT ?`,
        [...filter.params, ...range.inside.params, end ?? -1],
      )
      .map(fromStatsRow);
    const insideIds = new Set(inside.map((r) => r.threadId));
    const merged = [...inside, ...crossing.filter((r) => rangeMatches(r, q.min, q.max))].sort(compare).slice(start, end);
    const pagedInside = merged.filter((r) => insideIds.has(r.threadId));
    await this.#price(q.projectId, pagedInside, this.#usageOf(q.projectId, pagedInside));
    await this.#priceInRange(
      q.projectId,
      merged.filter((r) => !insideIds.has(r.threadId)),
      range,
    );
    return merged;
  }

  /**
   * The threads matching the filter's search, attributes and ids that have turns both inside
   * and outside the range, with the statistics of their turns inside (no cost; not bounded
   * by min/max yet). Threads without a turn inside are left out.
   */
  #crossing(q: ThreadsQuery, range: DateRange): ThreadRecord[] {
    const picked = compileThreadFilter({ ...q, min: null, max: null }, 's');
    const ids = this.#db
      .all<{ thread_id: string }>(`SELECT s.thread_id FROM thread_stats s WHERE ${picked.sql} AND ${range.crossing.sql}`, [
        ...picked.params,
        ...range.crossing.params,
      ])
      .map((r) => r.thread_id);
    if (ids.length === 0) return [];
    const byThread = new Map<string, TurnFacts[]>();
    const facts = `SELECT f.thread_id, f.id, f.started_at, f.ended_at, f.failed, f.tokens FROM thread_turn_facts f
      WHERE f.project_id = ? AND f.thread_id IN (SELECT value FROM json_each(?)) AND ${range.turns.sql}`;
    for (const row of this.#db.all<TurnRow>(facts, [q.projectId, JSON.stringify(ids), ...range.turns.params])) {
      let list = byThread.get(row.thread_id);
      if (!list) byThread.set(row.thread_id, (list = []));
      list.push(toFacts(row));
    }
    return [...byThread].map(([threadId, turns]) => ({ threadId, ...computeThreadStats(turns), totalCost: null }));
  }

  /** thread_usage of the given threads. */
  #usageOf(projectId: string, records: ThreadRecord[]): ThreadUsage[] {
    if (records.length === 0) return [];
    return this.#db.all<ThreadUsage>(
      `SELECT thread_id, model, prompt_tokens, completion_tokens FROM thread_usage
       WHERE project_id = ? AND thread_id IN (SELECT value FROM json_each(?))`,
      [projectId, JSON.stringify(records.map((r) => r.threadId))],
    );
  }

  /** Prices threads by the usage of their turns inside the range (what thread_usage holds for all turns). */
  async #priceInRange(projectId: string, records: ThreadRecord[], range: DateRange): Promise<void> {
    if (records.length === 0) return;
    const usage = this.#db.all<ThreadUsage>(
      `SELECT c.thread_id, u.key AS model, sum(${promptTokensSql('u.value')}) AS prompt_tokens,
         sum(${completionTokensSql('u.value')}) AS completion_tokens
       FROM calls c, ${usageEntriesSql('c.summary')}
       WHERE c.project_id = ? AND c.turn_id = c.id AND c.started_at IS NOT NULL AND c.deleted_at IS NULL
         AND c.thread_id IN (SELECT value FROM json_each(?)) AND ${range.calls.sql} AND ${USAGE_ENTRY_WHERE}
       GROUP BY c.thread_id, u.key`,
      [projectId, JSON.stringify(records.map((r) => r.threadId)), ...range.calls.params],
    );
    await this.#price(projectId, records, usage);
  }
}

/**
 * A page of thread_stats in the query's order, priced after the sort: priced inside it, every
 * row entering the top-N sorter was priced, which for rows arriving in the requested order
 * (start time descending) is every thread of the project (docs/performance.md "SQLite at 10M
 * calls"). Not for orders or bounds by cost (costDecides).
 */
export function statsPageSql(q: ThreadsQuery): { sql: string; params: unknown[] } {
  const filter = compileThreadFilter(q, 's');
  return {
    // A subquery with OFFSET is never flattened into the outer query; run as a co-routine it
    // costs less than a MATERIALIZED one (3 against 8 ms of CPU at 40,000 threads).
    sql: `SELECT ${STATS_COLUMNS}, ${threadCostSql('s')} AS total_cost FROM (SELECT project_id, ${STATS_COLUMNS} FROM thread_stats s
      WHERE ${filter.sql} ORDER BY ${orderSql(q.sortBy)} LIMIT ? OFFSET ?) s ORDER BY ${orderSql(q.sortBy)}`,
    params: [...filter.params, q.limit ?? -1, q.offset ?? 0],
  };
}

/** A date filter's bounds (exclusive, epoch µs) as SQL over thread_stats `s`, thread_turn_facts `f` and calls `c`. */
interface DateRange {
  /** Threads whose turns all started inside. */
  inside: { sql: string; params: unknown[] };
  /** Threads whose turns' starts span a bound (some may have no turn inside). */
  crossing: { sql: string; params: unknown[] };
  /** Turn facts `f` and turn calls `c` inside (`+`: the few threads' rows are found by thread, not by start). */
  turns: { sql: string; params: unknown[] };
  calls: { sql: string; params: unknown[] };
}

function rangeOf(q: ThreadsQuery): DateRange {
  const after = q.afterMicros ?? null;
  const before = q.beforeMicros ?? null;
  const inside = ['s.last_turn_start IS NOT NULL'];
  const insideParams: unknown[] = [];
  // Rows not refreshed since last_turn_start was added (NULL) are computed from their turns.
  const crossing = ['s.last_turn_start IS NULL'];
  const crossingParams: unknown[] = [];
  const turns: string[] = [];
  const calls: string[] = [];
  const turnParams: unknown[] = [];
  if (after !== null) {
    inside.push('s.start_time > ?');
    insideParams.push(after);
    crossing.push('(s.start_time <= ? AND s.last_turn_start > ?)');
    crossingParams.push(after, after);
    turns.push('+f.started_at > ?');
    calls.push('+c.started_at > ?');
    turnParams.push(after);
  }
  if (before !== null) {
    inside.push('s.last_turn_start < ?');
    insideParams.push(before);
    crossing.push('(s.start_time < ? AND s.last_turn_start >= ?)');
    crossingParams.push(before, before);
    turns.push('+f.started_at < ?');
    calls.push('+c.started_at < ?');
    turnParams.push(before);
  }
  return {
    inside: { sql: `(${inside.join(' AND ')})`, params: insideParams },
    crossing: { sql: `(${crossing.join(' OR ')})`, params: crossingParams },
    turns: { sql: `(${turns.join(' AND ')})`, params: turnParams },
    calls: { sql: `(${calls.join(' AND ')})`, params: turnParams },
  };
}

/**
 * ORDER BY of thread_stats columns (or the priced total_cost, or `cost` for it), ties by thread
 * id as compareThreads.
 */
const orderSql = (sortBy: ThreadsQuery['sortBy'], cost = 'total_cost') =>
  [
    ...sortBy.map((s) => `${s.field === 'total_cost' ? cost : threadSortColumn(s.field)} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`),
    'thread_id ASC',
  ].join(', ');

/** Whether cost decides the order or a bound (then every matching thread must be priced). */
const costDecides = (q: ThreadsQuery) =>
  q.sortBy.some((s) => s.field === 'total_cost') || q.min?.total_cost != null || q.max?.total_cost != null;
