/**
 * @module
 * A store that cannot be used right now (SQLite's file locked, unreadable or failing I/O;
 * ClickHouse unreachable) is an outage, not a bug: requests answer 503 with `Retry-After` and
 * what to check, and `/ready` reports it until a probe write succeeds again
 * (docs/operations/shutdown-and-readiness.md).
 */
import { ApiError } from '../errors.js';

/** When a client refused for an outage may try again. */
export const OUTAGE_RETRY_SECONDS = 5;

/** 503 for a store that cannot be used now; the reason says what to check. */
export class StoreUnavailableError extends ApiError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(503, reason, { retry_after: OUTAGE_RETRY_SECONDS }, { ...options, headers: { 'retry-after': String(OUTAGE_RETRY_SECONDS) } });
  }
}

/** What to check, by SQLite's primary result code (extended codes such as SQLITE_IOERR_WRITE share their primary's). */
const SQLITE_OUTAGES: Record<string, string> = {
  SQLITE_BUSY:
    'The database is locked by another process or connection past the busy timeout (SQLITE_BUSY): check for a long-running backup, a `sqlite3` shell holding a transaction, or another program using the file.',
  SQLITE_READONLY:
    'The database cannot be written (SQLITE_READONLY): check the permissions and the free space of the data directory (WEFT_DATA_DIR), and that the file was not replaced.',
  SQLITE_IOERR:
    'The database file failed an I/O operation (SQLITE_IOERR): check the disk, the file system and the size limits of the data directory (WEFT_DATA_DIR).',
  SQLITE_CANTOPEN:
    'The database file cannot be opened (SQLITE_CANTOPEN): check that the data directory (WEFT_DATA_DIR) and its files exist and are readable.',
  SQLITE_CORRUPT: 'The database file is damaged (SQLITE_CORRUPT): stop the server and restore a backup.',
  SQLITE_NOTADB: 'The database path does not hold an SQLite database (SQLITE_NOTADB): check the data directory (WEFT_DATA_DIR).',
  SQLITE_PERM: 'The database file cannot be accessed (SQLITE_PERM): check the permissions of the data directory (WEFT_DATA_DIR).',
};

/** The 503 for an engine error that means the store cannot be used now, or null for any other error. */
export function storeOutageOf(err: unknown): StoreUnavailableError | null {
  if (err instanceof StoreUnavailableError) return err;
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  const primary = /^SQLITE_[A-Z]+/.exec(code)![0];
  const reason = SQLITE_OUTAGES[primary];
  return reason ? new StoreUnavailableError(reason, { cause: err }) : null;
}

/** The default of WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS (ClickHouseDatabase's watch on a request). */
export const DEFAULT_CLICKHOUSE_CONNECT_TIMEOUT_MS = 3000;

/** The default of WEFT_SQLITE_BUSY_TIMEOUT_MS: how long a write waits out another process's lock. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Network failures reaching ClickHouse: the server is down, unreachable, or cut a connection mid-answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * ClickHouse's own errors (by name) that mean it cannot serve now, whatever the request: too busy,
 * out of memory, shutting down (queries cancelled), or a replica that cannot write.
 */
const UNAVAILABLE_TYPES = new Set([
  'TOO_MANY_SIMULTANEOUS_QUERIES',
  'MEMORY_LIMIT_EXCEEDED',
  'TIMEOUT_EXCEEDED',
  'TOO_MANY_PARTS',
  'QUERY_WAS_CANCELLED',
  'ABORTED',
  'NETWORK_ERROR',
  'SOCKET_TIMEOUT',
  'TABLE_IS_READ_ONLY',
  'ALL_CONNECTION_TRIES_FAILED',
  'NO_ZOOKEEPER',
  'KEEPER_EXCEPTION',
  // A read-your-writes statement the replicas could not make consistent in its retries
  // (ClickHouseDatabase.ts READ_YOUR_WRITES_SETTINGS).
  'UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE',
  'REPLICA_IS_NOT_IN_QUORUM',
  'UNKNOWN_STATUS_OF_INSERT',
]);

/** The 503 for a failed ClickHouse request that never reached a working server, or null. */
export function clickhouseOutageOf(err: unknown, url: string): StoreUnavailableError | null {
  if (!(err instanceof Error)) return null;
  if (err instanceof StoreUnavailableError) return err;
  const code = (err as { code?: unknown }).code;
  const type = (err as { type?: unknown }).type;
  // An HTTP answer cut or garbled on the way (llhttp's HPE_* codes) is a broken connection too.
  const network = typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('HPE_'));
  // @clickhouse/client's own request timeout, and an HTTP error from something in front of the server.
  const timeout = /^Timeout error/i.test(err.message);
  const gateway = /\b(502|503|504)\b.*(Bad Gateway|Service Unavailable|Gateway Time-?out)/i.test(err.message);
  if (typeof type === 'string' && UNAVAILABLE_TYPES.has(type)) {
    return new StoreUnavailableError(
      `ClickHouse at ${redactUrl(url)} cannot serve the request now (${type}): it is overloaded, short of memory or shutting down. Try again later.`,
      { cause: err },
    );
  }
  if (!network && !timeout && !gateway) return null;
  const what = network ? String(code) : timeout ? 'timed out' : 'a proxy answered that it is unavailable';
  return new StoreUnavailableError(
    `ClickHouse at ${redactUrl(url)} cannot be reached (${what}): check that it runs and that WEFT_CLICKHOUSE_URL points at it. Try again later.`,
    { cause: err },
  );
}

/** The 503 for a ClickHouse request given up on: no answer to it, nor to a `/ping`, within `ms`. */
export function clickhouseUnresponsive(url: string, ms: number): StoreUnavailableError {
  return new StoreUnavailableError(
    `ClickHouse at ${redactUrl(url)} did not answer within ${ms} ms (WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS), nor to a /ping: it is frozen, overloaded or unreachable. Try again later.`,
  );
}

/** A URL without credentials in it. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.origin;
  } catch {
    return 'WEFT_CLICKHOUSE_URL';
  }
}

/**
 * The last store outage this process saw in a request (a write thread's unit goes through the
 * main thread's group commit, which notes it here), until `/ready` clears it after a probe.
 */
let lastOutage: { reason: string; at: number } | null = null;

/** Remembers `err` when it is a store outage; answers whether it was. */
export function noteStoreError(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  const full = code === 'SQLITE_FULL' || code === 'ENOSPC';
  const reason = full
    ? 'The disk or database is full (SQLITE_FULL): free space in the data directory (WEFT_DATA_DIR).'
    : storeOutageOf(err)?.message;
  if (reason) lastOutage = { reason, at: Date.now() };
  return reason !== undefined;
}

export function lastStoreOutage(): { reason: string; at: number } | null {
  return lastOutage;
}

export function clearStoreOutage(): void {
  lastOutage = null;
}
