/**
 * SQLite implementation of ThreadsStore.
 *
 * Unfiltered queries (the threads page) read `thread_stats`, which triggers mark stale and
 * `refreshDirtyThreads` recomputes inside every write transaction, so sorting 20,000 threads
 * by any statistic is one small indexed scan. A date filter changes which turns count, so
 * those queries compute the statistics from the turn calls on the fly.
 */
import { computeThreadStats, type ThreadStats, type TurnFacts } from '../../core/threadStats.js';
import type { ThreadRecord, ThreadsQuery, ThreadsStore } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { pickPrice } from '../../core/pickPrice.js';
import { SqliteCostsStore } from './costs.js';
import { refreshThreadExtras } from './threadExtras.js';
import { compileThreadFilter, rangeMatches } from './threadsFilter.js';
import { callCostSql, callTokensSql, threadCostSql } from './usageSql.js';

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
    `INSERT OR REPLACE INTO thread_stats (project_id, ${STATS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
  }
  refreshThreadExtras(db, dirty, `${TURN_FACTS_SQL} WHERE ${TURN_WHERE} AND thread_id = ?`);
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

/** Sort keys as columns of thread_stats (a fixed whitelist: nothing from the request enters SQL). */
const COLUMN: Record<ThreadsQuery['sortBy'][number]['field'], keyof StatsRow> = {
  thread_id: 'thread_id',
  turn_count: 'turn_count',
  start_time: 'start_time',
  last_updated: 'last_updated',
  p50_turn_duration_ms: 'p50_turn_duration_ms',
  p99_turn_duration_ms: 'p99_turn_duration_ms',
  // Weft extensions.
  error_count: 'error_count',
  total_tokens: 'total_tokens',
  total_cost: 'total_cost',
};

export class SqliteThreadsStore implements ThreadsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
    // Threads marked stale by a migration (search documents and usage added later) are
    // rebuilt once, here, rather than waiting for their next write.
    if (db.get('SELECT 1 FROM dirty_threads LIMIT 1')) db.transaction(() => refreshDirtyThreads(db));
  }

  async *queryThreads(q: ThreadsQuery): AsyncIterable<ThreadRecord> {
    if (q.afterMicros != null || q.beforeMicros != null) yield* this.#computeFiltered(q);
    else if (costDecides(q)) yield* await this.#pricedInMemory(q);
    else yield* this.#readStats(q);
  }

  async countThreads(q: ThreadsQuery): Promise<number> {
    if (q.afterMicros != null || q.beforeMicros != null) {
      let n = 0;
      for (const _ of this.#computeFiltered({ ...q, limit: null, offset: null, withCost: false })) n++;
      return n;
    }
    if (costDecides(q)) return (await this.#pricedInMemory({ ...q, sortBy: [], limit: null, offset: null })).length;
    const filter = compileThreadFilter(q, 's');
    return this.#db.get<{ n: number }>(`SELECT count(*) AS n FROM thread_stats s WHERE ${filter.sql}`, filter.params)!.n;
  }

  async previews(projectId: string, ids: { firstInput: string[]; lastOutput: string[] }) {
    const get = (column: 'inputs' | 'output', list: string[]) => {
      const out = new Map<string, string | null>();
      if (list.length === 0) return out;
      const rows = this.#db.all<{ id: string; text: string | null }>(
        `SELECT id, substr(${column}, 1, 300) AS text FROM calls WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))`,
        [projectId, JSON.stringify(list)],
      );
      for (const r of rows) out.set(r.id, r.text);
      return out;
    };
    return { firstInput: get('inputs', ids.firstInput), lastOutput: get('output', ids.lastOutput) };
  }

  /**
   * Sorting or bounding by cost prices every matching thread. Pricing them here (one price
   * look-up per model, then arithmetic per thread) is several times faster than a price
   * sub-query per row in SQL, and 20,000 statistics rows are small.
   */
  async #pricedInMemory(q: ThreadsQuery): Promise<ThreadRecord[]> {
    const withoutCost = (r: ThreadsQuery['min']) => (r ? { ...r, total_cost: null } : r);
    const filter = compileThreadFilter({ ...q, min: withoutCost(q.min), max: withoutCost(q.max) }, 's');
    const rows = this.#db.all<StatsRow>(`SELECT ${STATS_COLUMNS} FROM thread_stats s WHERE ${filter.sql}`, filter.params);
    const usage = this.#db.all<{ thread_id: string; model: string; prompt_tokens: number; completion_tokens: number }>(
      'SELECT thread_id, model, prompt_tokens, completion_tokens FROM thread_usage WHERE project_id = ?',
      [q.projectId],
    );
    const prices = await new SqliteCostsStore(this.#db).pricesFor({
      projectId: q.projectId,
      llmIds: [...new Set(usage.map((u) => u.model))],
    });
    const byThread = new Map<string, typeof usage>();
    for (const u of usage) byThread.set(u.thread_id, [...(byThread.get(u.thread_id) ?? []), u]);
    let records = rows.map((r) => {
      let cost: number | null = null;
      for (const u of byThread.get(r.thread_id) ?? []) {
        const price = pickPrice({ prices, llmId: u.model, startedAt: r.start_time, projectId: q.projectId });
        if (price) cost = (cost ?? 0) + u.prompt_tokens * price.promptTokenCost + u.completion_tokens * price.completionTokenCost;
      }
      return fromStatsRow({ ...r, total_cost: cost });
    });
    records = records.filter((r) => rangeMatches(r, q.min, q.max));
    records.sort(compareBy(q.sortBy));
    const start = q.offset ?? 0;
    return records.slice(start, q.limit == null ? undefined : start + q.limit);
  }

  async *#readStats(q: ThreadsQuery): AsyncGenerator<ThreadRecord> {
    const filter = compileThreadFilter(q, 's');
    const params = [...filter.params];
    const order = q.sortBy.map((s) => `${COLUMN[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    order.push('thread_id ASC');
    params.push(q.limit ?? -1, q.offset ?? 0);
    // The cost is computed per row; SQLite only prices every thread when it sorts by cost.
    const sql = `SELECT ${STATS_COLUMNS}, ${threadCostSql('s')} AS total_cost FROM thread_stats s
      WHERE ${filter.sql} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`;
    for await (const row of this.#db.stream<StatsRow>(sql, params)) yield fromStatsRow(row);
  }

  /**
   * A date filter changes which turns count, so the statistics are computed here from the
   * turns in range. Their facts come from `thread_turn_facts` (kept with thread_stats: one
   * small row per live turn, indexed by start), not from the calls' JSON summaries.
   */
  *#computeFiltered(q: ThreadsQuery & { withCost?: boolean }): Generator<ThreadRecord> {
    const params: unknown[] = [q.projectId];
    let where = 'f.project_id = ?';
    if (q.afterMicros != null) {
      where += ' AND f.started_at > ?';
      params.push(q.afterMicros);
    }
    if (q.beforeMicros != null) {
      where += ' AND f.started_at < ?';
      params.push(q.beforeMicros);
    }
    if (q.threadIds) {
      where += ' AND f.thread_id IN (SELECT value FROM json_each(?))';
      params.push(JSON.stringify(q.threadIds));
    }
    // Search and attributes pick threads; ranges apply to the statistics of the turns in range.
    const picked = compileThreadFilter({ ...q, threadIds: null, min: null, max: null }, 'f');
    where += ` AND ${picked.sql}`;
    params.push(...picked.params);
    const byThread = new Map<string, TurnFacts[]>();
    const facts = `SELECT f.thread_id, f.id, f.started_at, f.ended_at, f.failed, f.tokens FROM thread_turn_facts f WHERE ${where}`;
    for (const row of this.#db.all<TurnRow>(facts, params)) {
      let list = byThread.get(row.thread_id);
      if (!list) byThread.set(row.thread_id, (list = []));
      list.push(toFacts(row));
    }
    const bounds = { after: q.afterMicros ?? null, before: q.beforeMicros ?? null };
    let records: ThreadRecord[] = [...byThread].map(([threadId, turns]) => ({ threadId, ...computeThreadStats(turns), totalCost: null }));
    // Costs of the turns in range are needed for every thread only when they decide the order
    // or a bound; otherwise only for the page being sent.
    const byCost = costDecides(q);
    if (byCost) this.#addTurnCosts(q.projectId, records, bounds);
    records = records.filter((r) => rangeMatches(r, q.min, q.max));
    records.sort(compareBy(q.sortBy));
    const start = q.offset ?? 0;
    const page = records.slice(start, q.limit == null ? undefined : start + q.limit);
    if (!byCost && q.withCost !== false) this.#addTurnCosts(q.projectId, page, bounds);
    yield* page;
  }

  /** Sets each record's cost to the summed cost of its turns that started within the bounds. */
  #addTurnCosts(projectId: string, records: ThreadRecord[], bounds: { after: number | null; before: number | null }): void {
    const CHUNK = 500;
    for (let i = 0; i < records.length; i += CHUNK) {
      const chunk = records.slice(i, i + CHUNK);
      const params: unknown[] = [projectId, ...chunk.map((r) => r.threadId)];
      let where = `${TURN_WHERE} AND thread_id IN (${chunk.map(() => '?').join(', ')})`;
      // `+started_at`: the bounds must not lure SQLite onto the start-time index; the few
      // threads' turns are found through the thread index.
      if (bounds.after !== null) {
        where += ' AND +started_at > ?';
        params.push(bounds.after);
      }
      if (bounds.before !== null) {
        where += ' AND +started_at < ?';
        params.push(bounds.before);
      }
      const costs = new Map(
        this.#db
          .all<{ thread_id: string; cost: number | null }>(
            `SELECT thread_id, sum(${callCostSql('calls')}) AS cost FROM calls WHERE ${where} GROUP BY thread_id`,
            params,
          )
          .map((r) => [r.thread_id, r.cost]),
      );
      for (const r of chunk) r.totalCost = costs.get(r.threadId) ?? null;
    }
  }
}

/** Whether cost decides the order or a bound (then every matching thread must be priced). */
const costDecides = (q: ThreadsQuery) =>
  q.sortBy.some((s) => s.field === 'total_cost') || q.min?.total_cost != null || q.max?.total_cost != null;

/** The same order SQLite gives thread_stats: NULL sorts lowest, ties by thread_id ascending. */
function compareBy(sortBy: ThreadsQuery['sortBy']) {
  const key: Record<string, (r: ThreadStats & { threadId: string }) => number | string | null> = {
    thread_id: (r) => r.threadId,
    turn_count: (r) => r.turnCount,
    start_time: (r) => r.startTime,
    last_updated: (r) => r.lastUpdated,
    p50_turn_duration_ms: (r) => r.p50TurnDurationMs,
    p99_turn_duration_ms: (r) => r.p99TurnDurationMs,
    error_count: (r) => r.errorCount,
    total_tokens: (r) => r.totalTokens,
    total_cost: (r) => (r as ThreadRecord).totalCost,
  };
  return (a: ThreadRecord, b: ThreadRecord): number => {
    for (const s of sortBy) {
      const x = key[s.field]!(a);
      const y = key[s.field]!(b);
      const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
      if (c !== 0) return s.direction === 'desc' ? -c : c;
    }
    return a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0;
  };
}
