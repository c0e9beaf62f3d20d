/**
 * @module
 * `GET /ready`: whether this process can serve API requests now. 200 `{"status":"ready"}` when
 * the store answers a trivial query and its schema is the one this build expects; 503 with the
 * reason and `Retry-After` otherwise. `/health` stays a liveness check: it answers while the
 * process runs, whatever the store does (docs/operations/shutdown-and-readiness.md).
 *
 * Cheap enough for a probe every second, and answered on the main thread without waiting on
 * SQLite's write lock: a WAL reader never waits for the writer, and the one write (a probe made
 * only after a request met an outage) gives up after PROBE_BUSY_MS.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { Context } from 'hono';
import { LATEST_CLICKHOUSE_VERSION } from '../store/clickhouse/migrations/index.js';
import { appliedVersion } from '../store/clickhouse/migrate.js';
import { ClickHouseStore } from '../store/clickhouse/ClickHouseStore.js';
import { migrations } from '../store/sqlite/migrations/index.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { clearStoreOutage, lastStoreOutage, OUTAGE_RETRY_SECONDS, storeOutageOf } from '../store/storeOutage.js';
import type { Store } from '../store/Store.js';

/** How long the probe write may wait for another process's write lock. */
const PROBE_BUSY_MS = 100;
/** A ClickHouse probe slower than this counts as unreachable (probes have timeouts of a second or so). */
const CLICKHOUSE_PROBE_MS = 2000;

export type Readiness = { ready: true; store: string; schema_version: number } | { ready: false; store: string; reason: string };

/** Answers `/ready` for `store`, as a Hono handler. */
export function readyHandler(store: Store): (c: Context) => Promise<Response> {
  const check = readinessCheck(store);
  return async () => {
    const r = await check();
    if (r.ready) return Response.json({ status: 'ready', store: r.store, schema_version: r.schema_version });
    return Response.json(
      { status: 'unavailable', store: r.store, reason: r.reason, retry_after: OUTAGE_RETRY_SECONDS },
      { status: 503, headers: { 'retry-after': String(OUTAGE_RETRY_SECONDS), 'cache-control': 'no-store' } },
    );
  };
}

/** The check for `store`. For a SQLite file it remembers which file was opened, to notice it replaced. */
export function readinessCheck(store: Store): () => Promise<Readiness> {
  if (store instanceof SqliteStore) return sqliteCheck(store);
  if (store instanceof ClickHouseStore) return clickhouseCheck(store);
  return async () => ({ ready: true, store: store.backend, schema_version: 0 });
}

function sqliteCheck(store: SqliteStore): () => Promise<Readiness> {
  const file = store.file;
  const onDisk = file !== ':memory:';
  const opened = onDisk ? identity(file) : null;
  const expected = migrations.at(-1)!.version;
  const notReady = (reason: string): Readiness => ({ ready: false, store: 'sqlite', reason });
  return async () => {
    const writer = store.db.writer;
    let version: number;
    try {
      version = writer.pragma('user_version', { simple: true }) as number;
    } catch (err) {
      return notReady(storeOutageOf(err)?.message ?? `The database does not answer: ${(err as Error).message}`);
    }
    if (version !== expected) {
      return notReady(
        version < expected
          ? `The database has schema version ${version}; this Weft needs ${expected}. Restart the server to upgrade it.`
          : `The database has schema version ${version}, newer than this Weft knows (${expected}): upgrade Weft.`,
      );
    }
    if (onDisk) {
      const now = identity(file);
      if (!now || !opened || now.ino !== opened.ino || now.dev !== opened.dev) {
        return notReady(
          `The database file ${file} is no longer the file this server opened (moved, deleted or replaced): writes would be lost. Restore it, or restart the server.`,
        );
      }
      const unwritable = [dirname(file), file].find((path) => !writable(path));
      if (unwritable)
        return notReady(`${unwritable} is not writable by this process: check the permissions of the data directory (WEFT_DATA_DIR).`);
    }
    // After a request met an outage, a write probe tells whether it is over.
    if (lastStoreOutage()) {
      const failure = probeWrite(store);
      if (failure) return notReady(failure);
      clearStoreOutage();
    }
    return { ready: true, store: 'sqlite', schema_version: version };
  };
}

/** A write that changes nothing but goes through the same lock, WAL and file: the reason it failed, or null. */
function probeWrite(store: SqliteStore): string | null {
  const writer = store.db.writer;
  const busy = writer.pragma('busy_timeout', { simple: true }) as number;
  writer.pragma(`busy_timeout = ${PROBE_BUSY_MS}`);
  try {
    const version = writer.pragma('user_version', { simple: true }) as number;
    writer.transaction(() => writer.pragma(`user_version = ${version}`)).immediate();
    return null;
  } catch (err) {
    return storeOutageOf(err)?.message ?? lastStoreOutage()?.reason ?? `The database cannot be written: ${(err as Error).message}`;
  } finally {
    writer.pragma(`busy_timeout = ${busy}`);
  }
}

function clickhouseCheck(store: ClickHouseStore): () => Promise<Readiness> {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${CLICKHOUSE_PROBE_MS} ms`)), CLICKHOUSE_PROBE_MS);
    });
    try {
      const version = await Promise.race([appliedVersion(store.db), timeout]);
      if (version !== LATEST_CLICKHOUSE_VERSION) {
        return {
          ready: false,
          store: 'clickhouse',
          reason:
            version < LATEST_CLICKHOUSE_VERSION
              ? `The ClickHouse database has schema version ${version}; this Weft needs ${LATEST_CLICKHOUSE_VERSION}. Run \`weft migrate\`.`
              : `The ClickHouse database has schema version ${version}, newer than this Weft knows (${LATEST_CLICKHOUSE_VERSION}): upgrade Weft.`,
        };
      }
      return { ready: true, store: 'clickhouse', schema_version: version };
    } catch (err) {
      const message = (err as Error).message;
      return { ready: false, store: 'clickhouse', reason: /^no answer/.test(message) ? `ClickHouse gave ${message}.` : message };
    } finally {
      clearTimeout(timer);
    }
  };
}

function identity(file: string): Stats | null {
  try {
    const s = statSync(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
