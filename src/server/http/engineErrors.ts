/**
 * @module
 * Storage-engine and runtime failures that a client's request can provoke, as answers that
 * say what happened instead of a bare 500: a full disk is 507 Insufficient Storage (nothing
 * was written: the transaction rolled back), a statement SQLite finds too big is a 400 that
 * names SQLite's limit, a store that cannot be used now is a 503 with `Retry-After`
 * (store/storeOutage.ts), and a value nested too deep for the runtime is a 400.
 */
import { ApiError } from '../errors.js';
import { noteStoreError, OUTAGE_RETRY_SECONDS, storeOutageOf } from '../store/storeOutage.js';

/** The answer for an engine error a request can cause, or null when it is a server fault. */
export function fromEngineError(err: unknown): ApiError | null {
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  // Remembered for `/ready` (store/storeOutage.ts).
  noteStoreError(err);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new ApiError(
      507,
      'The server is out of storage space (disk or database full); nothing was written. Try again later.',
      { retry_after: OUTAGE_RETRY_SECONDS },
      { cause: err, headers: { 'retry-after': String(OUTAGE_RETRY_SECONDS) } },
    );
  }
  if (typeof code === 'string' && code.startsWith('SQLITE_') && TOO_BIG.test(err.message)) {
    return new ApiError(400, `The request makes a statement larger than SQLite allows (${err.message}); ask for fewer values at once`);
  }
  // A store that cannot be used now (locked, unreadable, failing I/O): 503 with what to check.
  const outage = storeOutageOf(err);
  if (outage) return outage;
  if (err instanceof RangeError && /call stack size/i.test(err.message)) {
    return new ApiError(400, 'The request is nested too deeply to process');
  }
  return null;
}

const TOO_BIG = /too many SQL variables|Expression tree is too large|parser stack overflow|string or blob too big|too many terms/i;
