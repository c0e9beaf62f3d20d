/**
 * `weft backup` and `weft restore` for the SQLite store (docs/operations/backup.md).
 *
 * The backup is SQLite's online backup API, run from this process on a read-only connection
 * while a server (another process) keeps writing. It holds one read transaction for the whole
 * copy: in WAL mode that snapshot does not block the writer, and the copy is the database as of
 * the moment it began. Without it, SQLite restarts a backup whenever another process commits,
 * and under steady writes it would never finish.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { migrations } from '../store/sqlite/migrations/index.js';
import { liveServers } from './dataDirLock.js';

export const SQLITE_FILE = 'weft.sqlite';
/** Pages copied per step between progress reports: 16 MiB at 4 KiB pages. */
const PAGES_PER_STEP = 4096;

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  schemaVersion: number;
}

export interface BackupOptions {
  force?: boolean;
  /** Pages per step (tests make many small steps, to copy across many commits). */
  pagesPerStep?: number;
  /** Told the pages copied after each step; may answer the next step's size (0 holds the copy). */
  progress?: (copiedPages: number, totalPages: number) => number | void;
}

/** Copies the database of `dataDir` to `target` (a new file unless `force`), consistently. */
export async function backupSqlite(dataDir: string, target: string, options: BackupOptions = {}): Promise<BackupResult> {
  const source = join(dataDir, SQLITE_FILE);
  if (!existsSync(source)) throw new Error(`no database at ${source}: is --data-dir (WEFT_DATA_DIR) right?`);
  const file = resolve(target);
  if (existsSync(file) && !options.force) throw new Error(`${file} exists; choose another name, or --force to replace it`);
  if (!existsSync(dirname(file))) throw new Error(`the directory ${dirname(file)} does not exist`);
  // Written beside the target and renamed at the end, so a copy cut short never has its name.
  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  // The copy holds the password and key hashes: 0600 from the start, as the database is.
  closeSync(openSync(partial, 'w', 0o600));
  const began = performance.now();
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN');
    // BEGIN is deferred: this read takes the snapshot the whole copy is made from.
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    await db.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        const next = options.progress?.(totalPages - remainingPages, totalPages);
        return typeof next === 'number' ? next : (options.pagesPerStep ?? PAGES_PER_STEP);
      },
    });
    db.exec('COMMIT');
    const check = settleCopy(partial);
    if (check !== 'ok') throw new Error(`the copy failed its integrity check (${check}); the database itself may be damaged`);
    renameSync(partial, file);
    chmodSync(file, 0o600);
    return { file, bytes: statSync(file).size, ms: performance.now() - began, schemaVersion };
  } catch (err) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(partial + suffix, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/**
 * Makes the copy one self-contained file (rollback journal, not WAL: it carried the source's WAL
 * flag, and would grow -wal and -shm companions when opened), then `PRAGMA quick_check`s it:
 * 'ok', or what is wrong. The server puts a restored file back in WAL mode when it opens it.
 */
function settleCopy(file: string): string {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join('; ');
  } finally {
    db.close();
  }
}

/** The schema version a backup file is at, or why it is not a Weft database this code can open. */
export function inspectBackup(file: string): { schemaVersion: number } {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const latest = migrations.at(-1)!.version;
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`${file} cannot be opened as a SQLite database (${(err as Error).message})`, { cause: err });
  }
  try {
    let check: string;
    let version: number;
    let tables: Set<string>;
    try {
      check = (db.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check).join('; ');
      version = db.pragma('user_version', { simple: true }) as number;
      tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    } catch (err) {
      throw new Error(`${file} is not a SQLite database (${(err as Error).message})`, { cause: err });
    }
    if (check !== 'ok') throw new Error(`${file} is damaged: its integrity check says ${check}`);
    if (version === 0 || !tables.has('calls') || !tables.has('users')) {
      throw new Error(`${file} is a SQLite database but not a Weft one (no Weft schema version or tables)`);
    }
    if (version > latest) {
      throw new Error(
        `${file} is at schema version ${version}, made by a newer Weft; this one knows versions up to ${latest}. Restore it with that version or newer.`,
      );
    }
    return { schemaVersion: version };
  } finally {
    db.close();
  }
}

export interface RestoreResult {
  schemaVersion: number;
  /** Where the database that was in place went (null: there was none). */
  keptAside: string | null;
  bytes: number;
}

/**
 * Puts the backup `file` in place as the database of `dataDir`. Refuses while a server uses the
 * directory; the database that was there is kept aside with its -wal/-shm, not deleted.
 */
export function restoreSqlite(dataDir: string, file: string, now: Date = new Date()): RestoreResult {
  const source = resolve(file);
  const { schemaVersion } = inspectBackup(source);
  const servers = liveServers(dataDir);
  if (servers.length) {
    const list = servers.map((s) => `pid ${s.pid} since ${s.startedAt}`).join(', ');
    throw new Error(
      `a server is using ${dataDir} (${list}); stop it first. If no Weft server runs there, remove ${join(dataDir, 'running')} and try again.`,
    );
  }
  // A fresh data directory is made as the server makes it: readable by its owner only.
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const target = join(dataDir, SQLITE_FILE);
  const incoming = join(dataDir, `.${SQLITE_FILE}.restoring-${process.pid}`);
  closeSync(openSync(incoming, 'w', 0o600));
  try {
    copyFileSync(source, incoming);
  } catch (err) {
    rmSync(incoming, { force: true });
    throw err;
  }
  let keptAside: string | null = null;
  if (existsSync(target)) {
    // The WAL may hold commits not yet in the file (a crashed server): it goes aside with it,
    // under the names SQLite looks for, so the old database still opens whole from there.
    keptAside = `${target}.pre-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, keptAside);
  }
  for (const suffix of ['-wal', '-shm', '-journal']) {
    if (!existsSync(target + suffix)) continue;
    if (keptAside) renameSync(target + suffix, keptAside + suffix);
    else rmSync(target + suffix);
  }
  renameSync(incoming, target);
  chmodSync(target, 0o600);
  return { schemaVersion, keptAside, bytes: statSync(target).size };
}
