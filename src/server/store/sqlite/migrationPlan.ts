/**
 * `weft migrate --dry-run` on SQLite: the migrations a SQLite file has not seen yet, as the SQL
 * the next process to open it would run (SQLite migrates itself on open, one transaction per
 * migration; SqliteDatabase.ts). The file is only read.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';

/** The schema version of a SQLite file (0 when it does not exist yet). */
export function sqliteSchemaVersion(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** What the next open of `file` would apply, as printable SQL headed by a comment per migration. */
export function sqliteMigrationPlan(file: string): string {
  const from = sqliteSchemaVersion(file);
  const pending = migrations.filter((m) => m.version > from);
  const to = pending.at(-1)?.version ?? from;
  const head = pending.length
    ? `-- SQLite file ${file} is at schema version ${from}; the next weft process to open it brings it to ${to} with these statements, one transaction per migration (dry run: nothing was changed).`
    : `-- SQLite file ${file} is at schema version ${from}; nothing to do (dry run: nothing was changed).`;
  return [head, ...pending.map((m) => `\n-- migration ${m.version}: ${m.name}\n${m.sql.trim()}`)].join('\n');
}
