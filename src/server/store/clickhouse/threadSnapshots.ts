/**
 * Thread statistics kept between requests on ClickHouse (migration 23, docs/clickhouse.md
 * "Thread snapshots"): a threads request without a date range reads each thread's row from a
 * snapshot taken at a mark, and recomputes, from thread_turns as the per-request pass does, only
 * the threads an insert touched since the mark (less a margin). Answers stay exact: a thread is
 * served from the snapshot only when no part that could change it arrived after the snapshot
 * read its turns.
 *
 * Why not aggregate states fed by the views: a call's end part carries no thread, a re-sent end
 * replaces a duration, and a delete takes a turn out, none of which an insert-only aggregate
 * state (quantiles included) can undo. The snapshot is what such a state would give for the
 * threads nobody touched since, and the touched ones are a few next to the project's.
 *
 * - `thread_touches` (a view of every insert into calls): the ids of the parts that can change
 *   a thread (a turn's start; any part without a start), stamped with the engine's clock.
 * - A refresh at mark m (the engine's clock when it starts) rewrites the threads touched at or
 *   after the previous mark less the margin, reading thread_turns after m, then records m.
 *   An insert whose view ran before m − margin has landed by m, so the refresh saw it.
 * - A read at mark m takes the snapshot's rows of every thread not touched at or after
 *   m − margin, and computes the touched ones now.
 */
import type { ClickHouseDatabase, Params } from './ClickHouseDatabase.js';
import { statsSql, THREAD_STAT_COLUMNS, TURN_USAGE, TURNS } from './threadStatsSql.js';

export interface ThreadSnapshotOptions {
  /** How long an insert into calls may run past its views (µs): touches this recent stay unsettled. */
  marginMicros: number;
  /** A read refreshes the snapshot first once more parts than this, older than the margin, touched threads since its mark. */
  refreshTouches: number;
  /** A snapshot older than this (µs) is rebuilt whole (thread_touches keeps 7 days), and not read meanwhile. */
  maxAgeMicros: number;
  /** A whole rebuild writes the threads in chunks of about this many turns, each statement bounded. */
  chunkTurns: number;
}

/**
 * Two minutes: over twice the longest an insert may run (max_execution_time, ClickHouseDatabase.ts).
 * Six days: within thread_touches' 7, so an idle project's snapshot is refreshed, not rebuilt.
 */
export const DEFAULT_THREAD_SNAPSHOTS: ThreadSnapshotOptions = {
  marginMicros: 120_000_000,
  refreshTouches: 2_000,
  maxAgeMicros: 6 * 86_400_000_000,
  chunkTurns: 500_000,
};

/** A thread's statistics and its usage by model (as arrays), as thread_snapshots holds them. */
const STAT_COLUMNS = [...THREAD_STAT_COLUMNS, 'usage_models', 'usage_prompt', 'usage_completion'];

/** The row columns both sides of a read give. */
const ROW_COLUMNS = ['thread_id', ...STAT_COLUMNS].join(', ');

/** The statistics of the threads of `rows` (a FROM target over thread_turns FINAL), typed as thread_snapshots holds them. */
function liveStatsSql(rows: string, where: string): string {
  return `SELECT thread_id, turn_count, finished_turn_count, assumeNotNull(start_time) AS start_time, last_updated,
      first_turn_id, last_turn_id, p50_turn_duration_ms, p99_turn_duration_ms, error_count, toInt64(total_tokens) AS total_tokens,
      usage_by_model.1 AS usage_models, usage_by_model.2 AS usage_prompt, usage_by_model.3 AS usage_completion
    FROM (SELECT ${statsSql(true)} FROM (SELECT ${TURNS.facts}, ${TURN_USAGE} FROM ${rows} WHERE ${where}) GROUP BY thread_id)`;
}

/**
 * The threads touched at or after `since` (epoch µs), by their turns' ids: a touched part's
 * thread as merged now, and the thread the snapshot last put it in (a turn started again in
 * another thread leaves the old one). Both by id, the tables' key. `{p:String}` is the project.
 * GLOBAL IN is spelled out: on a sharded layout the engine refuses the IN of a PREWHERE that
 * distributed_product_mode rewrote ("Invalid local IN function name globalIn").
 */
function touchedSql(since: string): { ids: string; threads: string } {
  const ids = `SELECT id FROM thread_touches WHERE project_id = {p:String} AND seen_at >= ${since}`;
  const threads = `SELECT thread_id FROM thread_turns FINAL PREWHERE project_id = {p:String} AND id GLOBAL IN (${ids}) WHERE thread_id IS NOT NULL
    UNION DISTINCT SELECT thread_id FROM thread_snapshot_turns FINAL PREWHERE project_id = {p:String} AND id GLOBAL IN (${ids})`;
  return { ids, threads };
}

/** The merged turn rows of the touched threads, found by id (the key of thread_turns) with PREWHERE before FINAL. */
function touchedTurnsSql(since: string): { from: string; where: string } {
  const { ids, threads } = touchedSql(since);
  const turnIds = `SELECT arrayJoin(turn_ids) FROM thread_snapshots FINAL WHERE project_id = {p:String} AND thread_id GLOBAL IN (${threads})
    UNION ALL ${ids}`;
  return {
    from: `thread_turns FINAL PREWHERE project_id = {p:String} AND id GLOBAL IN (${turnIds})`,
    where: `thread_id GLOBAL IN (${threads})`,
  };
}

/** The mark a read uses, and whether a part touched a thread since the mark less the margin. */
export interface SnapshotMark {
  mark: number;
  touched: boolean;
}

export class ThreadSnapshots {
  readonly #db: ClickHouseDatabase;
  readonly #options: ThreadSnapshotOptions;
  /** A refresh per project at a time from this process; other replicas may refresh too (harmless). */
  readonly #refreshing = new Map<string, Promise<number>>();

  constructor(db: ClickHouseDatabase, options: ThreadSnapshotOptions) {
    this.#db = db;
    this.#options = options;
  }

  /**
   * The mark a read of the project's threads uses, or null when there is no snapshot to read
   * (none yet, or too old): the read computes every thread then, and a build runs in the
   * background. Many touches since the mark start a refresh in the background too; the read
   * stays exact meanwhile by computing the touched threads (docs/clickhouse.md "Thread snapshots").
   * `touched` says whether any part touched a thread at or after the mark less the margin: when
   * none did, the read is the snapshot's rows alone.
   */
  async mark(projectId: string): Promise<SnapshotMark | null> {
    const { marginMicros, refreshTouches, maxAgeMicros } = this.#options;
    // One round trip: the mark, the engine's clock, whether any touch is recent enough to be
    // computed by the read, and the touches a refresh now would settle: since the mark and older
    // than the margin (counted up to one past the threshold; none read without a mark). Newer
    // touches stay unsettled whatever a refresh does, so they never call one.
    const row = await this.#db.get<{ m: string; now: string; touched: string; recent: string }>(
      `WITH (SELECT max(mark) FROM thread_snapshot_marks WHERE project_id = {p:String}) AS m,
         toUnixTimestamp64Micro(now64(6)) AS engine_now
       SELECT m, engine_now AS now,
         (SELECT count() FROM (SELECT 1 FROM thread_touches
           WHERE project_id = {p:String} AND seen_at >= if(m = 0, 9223372036854775807, m - {margin:Int64})
             AND seen_at < engine_now - {margin:Int64} LIMIT {cap:UInt64})) AS touched,
         (SELECT count() FROM (SELECT 1 FROM thread_touches
           WHERE project_id = {p:String} AND seen_at >= m - {margin:Int64} LIMIT 1)) AS recent`,
      { p: projectId, margin: marginMicros, cap: refreshTouches + 1 },
    );
    const mark = Number(row?.m ?? 0);
    if (mark === 0 || Number(row?.now ?? 0) - mark > maxAgeMicros) {
      this.#background(projectId, 0);
      return null;
    }
    if (Number(row?.touched ?? 0) > refreshTouches) this.#background(projectId, mark);
    return { mark, touched: Number(row?.recent ?? 1) > 0 };
  }

  /** Until the builds and refreshes running in the background from this process have ended. */
  async settled(): Promise<void> {
    while (this.#refreshing.size > 0) await Promise.allSettled([...this.#refreshing.values()]);
  }

  /**
   * Starts a refresh (`from` the current mark) or a whole build (0) unless one runs for the
   * project. A failure is left for the next read to try again: reads stay exact without it.
   */
  #background(projectId: string, from: number): void {
    void this.#refresh(projectId, from).catch(() => undefined);
  }

  /**
   * The project's thread rows (ROW_COLUMNS), every thread with live turns once, as a SELECT
   * over `{p:String}` and `{snapshot_since:Int64}` (which this sets in `params`).
   */
  rowsSql(at: SnapshotMark, params: Params): string {
    // No part touched a thread since the mark less the margin (when `mark` looked): every live
    // row of the snapshot is its thread as it stands, and the read is those rows alone, without
    // the lookups of touched threads (each a read of several tables, most of a page's cost).
    if (!at.touched) return `SELECT ${ROW_COLUMNS} FROM thread_snapshots FINAL WHERE project_id = {p:String} AND live = 1`;
    params.snapshot_since = at.mark - this.#options.marginMicros;
    const since = '{snapshot_since:Int64}';
    const touched = touchedTurnsSql(since);
    return `SELECT ${ROW_COLUMNS} FROM thread_snapshots FINAL
        WHERE project_id = {p:String} AND live = 1 AND thread_id GLOBAL NOT IN (${touchedSql(since).threads})
      UNION ALL ${liveStatsSql(touched.from, `${TURNS.where} AND ${touched.where}`)}`;
  }

  #refresh(projectId: string, from: number): Promise<number> {
    const running = this.#refreshing.get(projectId);
    if (running) return running;
    const refresh = this.#rewrite(projectId, from).finally(() => this.#refreshing.delete(projectId));
    this.#refreshing.set(projectId, refresh);
    return refresh;
  }

  /**
   * Rewrites the threads touched since `from` less the margin (all of the project's when `from`
   * is 0) as of a new mark, then records the mark. A thread left without live turns gets a row
   * with live = 0 at the lower version, which its live row (if any) replaces.
   *
   * Readers at the current mark read these tables throughout (another process may rebuild while
   * this one reads), so no step may leave them wrong: a row is written only once its thread's
   * turns are read (never "gone until rewritten"), and the turns' homes only after their threads'
   * rows, from those rows (docs/clickhouse.md "Thread snapshots").
   */
  async #rewrite(projectId: string, from: number): Promise<number> {
    const now = await this.#db.get<{ now: string }>('SELECT toUnixTimestamp64Micro(now64(6)) AS now');
    const mark = Number(now!.now);
    const params: Params = { p: projectId, v: 2 * mark, since: from - this.#options.marginMicros };
    if (from === 0) {
      // A whole rebuild, in chunks of threads (by a hash of the id), so no statement holds or
      // reads every thread at once: at 10M calls one statement over 2M turns ran past the
      // engine's 50-s limit.
      const turns = await this.#db.get<{ n: string }>('SELECT count() AS n FROM thread_turns WHERE project_id = {p:String}', params);
      const chunks = Math.max(1, Math.ceil(Number(turns?.n ?? 0) / this.#options.chunkTurns));
      const chunk = (n: number) => `cityHash64(thread_id) % ${chunks} = ${n}`;
      for (let n = 0; n < chunks; n++)
        await this.#writeRows(
          { from: 'thread_turns FINAL', where: `project_id = {p:String} AND thread_id IS NOT NULL AND ${chunk(n)}` },
          params,
        );
      // The threads the rebuild found no turn of (a live row older than it): gone, at the lower
      // version, below every row this rebuild or a later refresh writes.
      await this.#db.command(
        `INSERT INTO thread_snapshots (project_id, thread_id, version, live)
         SELECT project_id, thread_id, {v:Int64}, 0 FROM thread_snapshots FINAL
         WHERE project_id = {p:String} AND live = 1 AND version < {v:Int64}`,
        params,
      );
      for (let n = 0; n < chunks; n++) await this.#writeHomes(chunk(n), params);
    } else {
      const touched = touchedTurnsSql('{since:Int64}');
      await this.#writeRows(touched, params);
      await this.#writeHomes(touched.where, params);
    }
    await this.#db.insert('thread_snapshot_marks', [{ project_id: projectId, mark }]);
    return mark;
  }

  /** Writes the snapshot rows of the threads of `scope` at the version of `params.v`. */
  async #writeRows(scope: { from: string; where: string }, params: Params): Promise<void> {
    const live = liveStatsSql(`(SELECT * FROM ${scope.from} WHERE ${scope.where})`, TURNS.where);
    await this.#db.command(
      `INSERT INTO thread_snapshots (project_id, thread_id, version, live, turn_ids, ${STAT_COLUMNS.join(', ')})
       SELECT {p:String}, a.thread_id, {v:Int64} + s.live, s.live, a.turn_ids, ${STAT_COLUMNS.map((c) => `s.${c}`).join(', ')}
       FROM (SELECT thread_id, groupArray(id) AS turn_ids FROM ${scope.from} WHERE ${scope.where} GROUP BY thread_id) AS a
       LEFT JOIN (SELECT 1 AS live, * FROM (${live})) AS s ON a.thread_id = s.thread_id
       SETTINGS join_use_nulls = 0`,
      params,
    );
  }

  /**
   * Writes the homes of the turns of the threads `where` picks, from the rows written at the
   * version of `params.v` or later: each turn's thread as the very read that wrote its row saw
   * it, so a turn moved to another thread after that read still names the old one as touched.
   */
  async #writeHomes(where: string, params: Params): Promise<void> {
    await this.#db.command(
      `INSERT INTO thread_snapshot_turns (project_id, id, thread_id, version)
       SELECT {p:String}, arrayJoin(turn_ids), thread_id, {v:Int64} FROM thread_snapshots FINAL
       PREWHERE project_id = {p:String} AND ${where} WHERE version >= {v:Int64}`,
      params,
    );
  }
}
