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
    coalesce((SELECT sum(coalesce(json_extract(u.value, '$.total_tokens'),
        coalesce(json_extract(u.value, '$.prompt_tokens'), json_extract(u.value, '$.input_tokens'), 0)
      + coalesce(json_extract(u.value, '$.completion_tokens'), json_extract(u.value, '$.output_tokens'), 0)))
      FROM json_each(calls.summary, '$.usage') u), 0) AS tokens
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
});

/** Sort keys as columns of thread_stats (a fixed whitelist: nothing from the request enters SQL). */
const COLUMN: Record<ThreadsQuery['sortBy'][number]['field'], keyof StatsRow> = {
  thread_id: 'thread_id',
  turn_count: 'turn_count',
  start_time: 'start_time',
  last_updated: 'last_updated',
  p50_turn_duration_ms: 'p50_turn_duration_ms',
  p99_turn_duration_ms: 'p99_turn_duration_ms',
};

export class SqliteThreadsStore implements ThreadsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async *queryThreads(q: ThreadsQuery): AsyncIterable<ThreadRecord> {
    const rows = q.afterMicros != null || q.beforeMicros != null ? this.#computeFiltered(q) : this.#readStats(q);
    yield* rows;
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

  async *#readStats(q: ThreadsQuery): AsyncGenerator<ThreadRecord> {
    const params: unknown[] = [q.projectId];
    let where = 'project_id = ?';
    if (q.threadIds) {
      where += ' AND thread_id IN (SELECT value FROM json_each(?))';
      params.push(JSON.stringify(q.threadIds));
    }
    const order = q.sortBy.map((s) => `${COLUMN[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    order.push('thread_id ASC');
    params.push(q.limit ?? -1, q.offset ?? 0);
    const sql = `SELECT ${STATS_COLUMNS} FROM thread_stats WHERE ${where} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`;
    for await (const row of this.#db.stream<StatsRow>(sql, params)) yield fromStatsRow(row);
  }

  *#computeFiltered(q: ThreadsQuery): Generator<ThreadRecord> {
    const params: unknown[] = [q.projectId];
    let where = TURN_WHERE;
    if (q.afterMicros != null) {
      where += ' AND started_at > ?';
      params.push(q.afterMicros);
    }
    if (q.beforeMicros != null) {
      where += ' AND started_at < ?';
      params.push(q.beforeMicros);
    }
    if (q.threadIds) {
      where += ' AND thread_id IN (SELECT value FROM json_each(?))';
      params.push(JSON.stringify(q.threadIds));
    }
    const byThread = new Map<string, TurnFacts[]>();
    for (const row of this.#db.all<TurnRow>(`${TURN_FACTS_SQL} WHERE ${where}`, params)) {
      let list = byThread.get(row.thread_id);
      if (!list) byThread.set(row.thread_id, (list = []));
      list.push(toFacts(row));
    }
    const records = [...byThread].map(([threadId, turns]) => ({ threadId, ...computeThreadStats(turns) }));
    records.sort(compareBy(q.sortBy));
    const start = q.offset ?? 0;
    yield* records.slice(start, q.limit == null ? undefined : start + q.limit);
  }
}

/** The same order SQLite gives thread_stats: NULL sorts lowest, ties by thread_id ascending. */
function compareBy(sortBy: ThreadsQuery['sortBy']) {
  const key: Record<string, (r: ThreadStats & { threadId: string }) => number | string | null> = {
    thread_id: (r) => r.threadId,
    turn_count: (r) => r.turnCount,
    start_time: (r) => r.startTime,
    last_updated: (r) => r.lastUpdated,
    p50_turn_duration_ms: (r) => r.p50TurnDurationMs,
    p99_turn_duration_ms: (r) => r.p99TurnDurationMs,
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
