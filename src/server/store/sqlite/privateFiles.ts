/**
 * @module
 * The SQLite file holds every tenant's traces, password hashes and API key hashes, so only
 * the account running Weft may read it: the data directory is created 0700 and the database
 * file with its `-wal` and `-shm` companions 0600 (SQLite would create them 0644).
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/** Creates the directory (0700) and an empty database file (0600) when missing; tightens existing database files. */
export function prepareDatabaseFile(file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode passes through the umask; set it outright.
    chmodSync(dir, 0o700);
  }
  // An empty file is a valid empty database; SQLite then gives its -wal/-shm the same mode.
  closeSync(openSync(file, 'a', 0o600));
  restrictDatabaseFiles(file);
}

/** chmod 0600 on the database file and whichever of its companions exist. */
export function restrictDatabaseFiles(file: string): void {
  for (const suffix of COMPANIONS) {
    const path = file + suffix;
    try {
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
