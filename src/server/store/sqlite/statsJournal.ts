/**
 * The journal that keeps the rollup cells current: triggers on `calls` record every change of a
 * visible call (started, not deleted) into `stats_journal` — sign +1 for a version of a row that
 * became visible, −1 for one that stopped being — and statsRollup.ts folds the journal into the
 * cells at the end of the same write transaction.
 *
 * Why TEMP (per connection, in its page cache) rather than in the schema: a journal row written to the
 * main database costs a B-tree insert and WAL pages for data deleted moments later, which
 * measured at ~5 µs per ingested call (+25 % on store writes); in memory it is ~1 µs. The
 * writer connection of every Weft process (each worker of `weft serve --workers`) installs it
 * at open and folds its own journal inside its own write transactions, and Weft owns its SQLite
 * file, so every write to `calls` is journaled; a write by a foreign connection would not be.
 */
import { seconds, type SqliteDatabase } from './SqliteDatabase.js';
import { refreshStatsRollup } from './statsRollup.js';

/** A visible version of a row (`OLD` or `NEW`) as a journal row, with its sign. */
const row = (sign: number, r: string) => `${sign}, ${r}.project_id, coalesce(${r}.op_name, ''), ${r}.started_at,
  (${r}.ended_at - ${r}.started_at) / 1000, ${r}.exception IS NOT NULL, json_extract(${r}.summary, '$.usage')`;
const visible = (r: string) => `${r}.started_at IS NOT NULL AND ${r}.deleted_at IS NULL`;

const JOURNAL_SQL = `
  CREATE TEMP TABLE IF NOT EXISTS stats_journal (
    sign       INTEGER NOT NULL,
    project_id TEXT NOT NULL,
    op_name    TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    latency_ms INTEGER,
    failed     INTEGER NOT NULL,
    usage      TEXT   -- json_extract(summary, '$.usage'), read as the exact scan reads it
  );

  CREATE TEMP TRIGGER IF NOT EXISTS calls_stats_inserted AFTER INSERT ON main.calls
  WHEN ${visible('NEW')}
  BEGIN
    INSERT INTO stats_journal VALUES (${row(1, 'NEW')});
  END;

  CREATE TEMP TRIGGER IF NOT EXISTS calls_stats_updated
  AFTER UPDATE OF op_name, started_at, ended_at, exception, summary, deleted_at ON main.calls
  WHEN OLD.op_name IS NOT NEW.op_name OR OLD.started_at IS NOT NEW.started_at OR OLD.ended_at IS NOT NEW.ended_at
    OR OLD.exception IS NOT NEW.exception OR OLD.summary IS NOT NEW.summary OR OLD.deleted_at IS NOT NEW.deleted_at
  BEGIN
    INSERT INTO stats_journal SELECT ${row(-1, 'OLD')} WHERE ${visible('OLD')};
    INSERT INTO stats_journal SELECT ${row(1, 'NEW')} WHERE ${visible('NEW')};
  END;

  CREATE TEMP TRIGGER IF NOT EXISTS calls_stats_deleted AFTER DELETE ON main.calls
  WHEN ${visible('OLD')}
  BEGIN
    INSERT INTO stats_journal VALUES (${row(-1, 'OLD')});
  END;`;

/** Calls folded in per step of the backfill, to bound its memory. */
const BACKFILL_CHUNK = 50_000;

/**
 * Installs the journal on the writer connection and, the first time the cells exist, folds in
 * the calls stored before them: in chunks, but in one transaction, so a crash leaves the whole
 * backfill to the next open rather than half of it counted.
 */
export function installStatsJournal(db: SqliteDatabase): void {
  // FILE, not MEMORY: under MEMORY a savepoint's journal (one per request in a group commit)
  // is kept in memory, and a batch into a big project then cost time growing far faster than
  // the pages it touched (docs/security/writer.md). The journal's pages stay cached anyway.
  db.writer.pragma('temp_store = FILE');
  db.writer.exec(JOURNAL_SQL);
  const backfilled = () => db.get<{ backfilled: number }>('SELECT backfilled FROM stats_rollup_state')!.backfilled === 1;
  if (backfilled()) return;
  db.transaction(() => {
    // Asked again under the write lock: another process (weft serve --workers) may have done it.
    if (backfilled()) return;
    const last = db.get<{ n: number | null }>('SELECT max(rowid) AS n FROM calls')!.n ?? 0;
    const began = performance.now();
    if (last > 0) db.progress("Counting the stored calls into the stats charts' rollup ...");
    for (let from = 0; from < last; from += BACKFILL_CHUNK) {
      db.run(`INSERT INTO stats_journal SELECT ${row(1, 'calls')} FROM calls WHERE rowid > ? AND rowid <= ? AND ${visible('calls')}`, [
        from,
        from + BACKFILL_CHUNK,
      ]);
      refreshStatsRollup(db);
      // Rows by rowid: deleted rows leave gaps, so this is the share of the table, not of calls.
      const done = Math.min(from + BACKFILL_CHUNK, last);
      if (done < last) db.progress(`Stats rollup: ${Math.floor((100 * done) / last)}% counted`);
    }
    db.run('UPDATE stats_rollup_state SET backfilled = 1');
    if (last > 0) db.progress(`Stats rollup ready in ${seconds(began)}.`);
  });
}
