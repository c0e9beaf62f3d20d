/**
 * The failed-login log (auth/loginThrottle.ts) in the `login_failures` table, so every server
 * process on this database file (`weft serve --workers N`) shares one count. Used on the
 * process's writer connection only (request threads ask their main thread). Statements are
 * small and indexed; a flood of wrong passwords adds one row per key per attempt, and rows past
 * the window are deleted as the log is written, so the table stays the size of one window.
 */
import type { FailureLog } from '../../auth/loginThrottle.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** Delete everything past the window at most this often (ms); per-key rows go on every write. */
const PRUNE_EVERY_MS = 60_000;

export class SqliteFailureLog implements FailureLog {
  readonly #db: SqliteDatabase;
  #prunedAt = 0;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  nthRecent(key: string, limit: number, since: number): number | null {
    const row = this.#db
      .prepare('SELECT at FROM login_failures WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?')
      .get(key, since, limit - 1) as { at: number } | undefined;
    return row ? row.at : null;
  }

  add(keys: string[], at: number, since: number): void {
    this.#db.transaction(() => {
      for (const key of keys) {
        this.#db.prepare('INSERT INTO login_failures (key, at) VALUES (?, ?)').run(key, at);
        this.#db.prepare('DELETE FROM login_failures WHERE key = ? AND at <= ?').run(key, since);
      }
      if (at - this.#prunedAt > PRUNE_EVERY_MS) {
        this.#prunedAt = at;
        this.#db.prepare('DELETE FROM login_failures WHERE at <= ?').run(since);
      }
    });
  }

  clear(key: string): void {
    this.#db.prepare('DELETE FROM login_failures WHERE key = ?').run(key);
  }
}
