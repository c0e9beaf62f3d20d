/**
 * Each thread's cost kept in `thread_stats.priced_cost` (migration 35), so sorting or bounding
 * threads by cost reads an index instead of pricing every thread per request
 * (docs/performance.md "SQLite cost sort at 10M").
 *
 * Exact by construction: a thread is priced whenever its statistics are refreshed, in the same
 * write transaction, with the prices in force then (`priceRefreshedThreads`), by the rule of
 * `threadCostSql` that prices every other thread page. A price change bumps its scope's epoch
 * (triggers on `llm_token_prices`), which makes the kept costs of the projects it may touch
 * stale; a cost order of a stale project prices per request (threads.ts) while a background
 * pass (`repriceStep`, run by `ThreadCostRepricer`) prices its threads again in chunks, each
 * chunk in one transaction that first checks the epochs it prices at are still current, and
 * marks the project fresh at those epochs when the last chunk is done.
 */
import type { Database } from 'better-sqlite3';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { threadCostSql } from './usageSql.js';

/** The current epochs of the default prices (scope '') and of a project's own, bound to the project id. */
const CURRENT_EPOCHS = `coalesce((SELECT epoch FROM price_epochs WHERE scope = ''), 0) AS default_epoch,
  coalesce((SELECT epoch FROM price_epochs WHERE scope = ?), 0) AS project_epoch`;

interface Epochs {
  default_epoch: number;
  project_epoch: number;
}

/** Whether a project's kept costs were priced with the prices in force now. */
export function keptCostsFresh(db: SqliteDatabase, projectId: string): boolean {
  return (
    db.get(
      `SELECT 1 AS fresh FROM thread_cost_epochs e WHERE e.project_id = ?
         AND e.default_epoch = coalesce((SELECT epoch FROM price_epochs WHERE scope = ''), 0)
         AND e.project_epoch = coalesce((SELECT epoch FROM price_epochs WHERE scope = e.project_id), 0)`,
      [projectId],
    ) !== undefined
  );
}

/**
 * Runs `fn`'s reads in one snapshot of the file (a deferred read transaction, unless one is
 * open), so a freshness check and the query it chose see the same prices and costs even while
 * another connection writes.
 */
export function inOneSnapshot<T>(db: SqliteDatabase, fn: () => T): T {
  const conn: Database = db.writer;
  if (conn.inTransaction) return fn();
  return conn.transaction(fn).deferred();
}

/**
 * Prices the given threads (just refreshed) at the prices in force. A project seen here for the
 * first time has no thread priced otherwise (migration 35 listed every project holding threads
 * then), so it is fresh at the current epochs. Call inside the refreshing write transaction.
 */
export function priceRefreshedThreads(db: SqliteDatabase, threads: { project_id: string; thread_id: string }[]): void {
  const price = db.prepare(`UPDATE thread_stats SET priced_cost = ${threadCostSql('thread_stats')} WHERE project_id = ? AND thread_id = ?`);
  const claim = db.prepare(
    `INSERT OR IGNORE INTO thread_cost_epochs (project_id, default_epoch, project_epoch) SELECT ?, ${CURRENT_EPOCHS}`,
  );
  const projects = new Set<string>();
  for (const { project_id, thread_id } of threads) {
    price.run(project_id, thread_id);
    projects.add(project_id);
  }
  for (const project of projects) claim.run(project, project);
}

/** A pass over one project's threads, in thread id order, at the epochs it began with. */
export interface RepricePass {
  projectId: string;
  epochs: Epochs;
  /** The last thread id priced so far ('' before the first). */
  after: string;
}

const STALE_PROJECT_SQL = `SELECT e.project_id FROM thread_cost_epochs e
  WHERE e.default_epoch != coalesce((SELECT epoch FROM price_epochs WHERE scope = ''), 0)
     OR e.project_epoch != coalesce((SELECT epoch FROM price_epochs WHERE scope = e.project_id), 0)
  LIMIT 1`;

/**
 * One step of the background pass, in one write transaction: the next `rows` threads of the
 * pass (or of a stale project, when `pass` is null) priced at the current prices. Answers the
 * pass to continue with, 'done' when it marked a project fresh, null when no project is stale.
 * When the prices changed since the pass began, the pass begins again at the new epochs.
 */
export function repriceStep(db: SqliteDatabase, pass: RepricePass | null, rows = 2000): RepricePass | 'done' | null {
  // Looked for outside the write transaction: most ticks find none and take no lock.
  const projectId = pass?.projectId ?? db.get<{ project_id: string }>(STALE_PROJECT_SQL)?.project_id;
  if (projectId === undefined) return null;
  return db.transaction(() => {
    const epochs = db.get<Epochs>(`SELECT ${CURRENT_EPOCHS}`, [projectId])!;
    const same = pass && pass.epochs.default_epoch === epochs.default_epoch && pass.epochs.project_epoch === epochs.project_epoch;
    const after = same ? pass.after : '';
    const ids = db
      .prepare('SELECT thread_id FROM thread_stats WHERE project_id = ? AND thread_id > ? ORDER BY thread_id LIMIT ?')
      .pluck()
      .all(projectId, after, rows) as string[];
    if (ids.length > 0) {
      db.run(
        `UPDATE thread_stats SET priced_cost = ${threadCostSql('thread_stats')}
         WHERE project_id = ? AND thread_id > ? AND thread_id <= ?`,
        [projectId, after, ids.at(-1)!],
      );
    }
    if (ids.length === rows) return { projectId, epochs, after: ids.at(-1)! };
    db.run(
      `INSERT INTO thread_cost_epochs (project_id, default_epoch, project_epoch) VALUES (?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET default_epoch = excluded.default_epoch, project_epoch = excluded.project_epoch`,
      [projectId, epochs.default_epoch, epochs.project_epoch],
    );
    return 'done';
  });
}

/** Runs the pass to its end (a bench before it measures, a test): answers how many projects it priced. */
export function repriceAll(db: SqliteDatabase, rows = 2000): number {
  let projects = 0;
  let pass: RepricePass | null = null;
  for (;;) {
    const next = repriceStep(db, pass, rows);
    if (next === null) return projects;
    if (next === 'done') projects++;
    pass = next === 'done' ? null : next;
  }
}

/** Milliseconds of repricing per tick at most, so a tick stays short beside the requests. */
const TICK_BUDGET_MS = 25;
/** Threads per step: one transaction of a few milliseconds. */
const STEP_ROWS = 1000;

/**
 * Runs the pass in the background on the writer's connection: a tick every 200 ms looks for a
 * stale project (one small table) and prices its threads for up to TICK_BUDGET_MS.
 */
export class ThreadCostRepricer {
  readonly #db: SqliteDatabase;
  readonly #timer: NodeJS.Timeout;
  #pass: RepricePass | null = null;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#timer = setInterval(() => this.#tick(), 200);
    this.#timer.unref();
  }

  #tick(): void {
    const t0 = performance.now();
    // Without waiting for a write lock another connection holds, as the search indexer does
    // (callSearch.ts): busy_timeout's wait would stall the main thread.
    const writer = this.#db.writer;
    const busyTimeout = writer.pragma('busy_timeout', { simple: true }) as number;
    try {
      writer.pragma('busy_timeout = 0');
      while (performance.now() - t0 < TICK_BUDGET_MS) {
        const next = repriceStep(this.#db, this.#pass, STEP_ROWS);
        this.#pass = next === 'done' ? null : next;
        if (next === null) break;
      }
    } catch {
      // Busy (another process holds the write lock) or closing: the next tick goes on.
    } finally {
      if (writer.open) writer.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
