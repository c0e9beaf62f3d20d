/**
 * The store a request served on the main thread sees (`main-when-small` routes, threadedApp.ts): its
 * reads run on the writer's own connection, its writes join the group commit like a request
 * thread's (storeForwarding.ts), and its reads are held to a budget. The main thread answers
 * `/health` and moves every other request's bytes, so it may only take work whose size is known
 * to be small. A small body bounds what such a request writes; what it reads depends on what is
 * stored: a prediction's finish reads every score of its row (a client may have sent thousands),
 * and a score reads its prediction, whose inputs a client may have sent in megabytes through a
 * write thread (parsing a megabyte of JSON takes ~5-10 ms, in which no one else is served).
 *
 * So a budgeted read throws OverMainThreadBudget, before it loads anything, when the calls it
 * would read hold more than MAIN_THREAD_BYTES of JSON or MAIN_THREAD_ROWS rows in all (measured
 * in SQL from the rows' headers: SqliteCallsStore.readCallWithin, storedSize), and so does a calls
 * query of another kind, whose size cannot be measured so. Other reads (object metadata, lists) count their rows as they
 * arrive. Nothing has been written by then (these requests write last: Store.applyLast), and the
 * caller hands the request, body and all, to a request thread, which serves it from the start.
 */
import type { SqliteCallsStore } from '../store/sqlite/calls.js';
import type { CallsQuery, ReadCallRequest, Store } from '../store/Store.js';
import type { GroupCommitter } from './groupCommit.js';
import { forwardingStore } from './storeForwarding.js';

/**
 * Rows a main-thread request may read. An evaluation's prediction finish reads its row's scores,
 * a few per scorer; 64 leaves room for dozens of scorers while bounding the read to well under a
 * millisecond (a small call row is read and parsed in ~5-10 µs).
 */
export const MAIN_THREAD_ROWS = 64;
/**
 * Bytes of stored JSON a main-thread request may read: ~1-2 ms of parsing at most. An evaluation
 * logger's rows are a few hundred bytes each; a score copies its prediction's inputs and output.
 */
export const MAIN_THREAD_BYTES = 256 * 1024;

/** Thrown by a budgeted read past the budget; http/defineRoutes.ts lets it through to the caller. */
export class OverMainThreadBudget extends Error {
  constructor(why: string) {
    super(`A request on the main thread would read ${why}; it goes to a request thread`);
    this.name = 'OverMainThreadBudget';
  }
}

/** The SQLite calls store's reads that measure before they load (SqliteCallsStore). */
export type MeasuredCalls = Pick<SqliteCallsStore, 'storedSize' | 'readCallWithin' | 'queryCallsNow'>;

/** The writer's store with its writes going through the group commit, for main-thread requests. */
export function committedStore(store: Store, committer: GroupCommitter): Store {
  return forwardingStore(store, (ops) => committer.submit(ops));
}

/** `store` for one request, its reads counted together against the budget (see above). */
export function budgetedStore(store: Store, measured: MeasuredCalls): Store {
  return new Proxy(store, new BudgetedStoreHandler(new ReadBudget(measured)));
}

/*
 * The budget and the proxies' handlers are classes, their state in fields and their work in
 * methods, rather than closures made per request.
 */

/** One request's reads, counted against MAIN_THREAD_ROWS and MAIN_THREAD_BYTES. */
class ReadBudget {
  #rows = 0;
  #bytes = 0;
  constructor(readonly measured: MeasuredCalls) {}

  spend(rows: number, bytes = 0): void {
    this.#rows += rows;
    this.#bytes += bytes;
    if (this.#rows > MAIN_THREAD_ROWS) throw new OverMainThreadBudget(`more than ${MAIN_THREAD_ROWS} rows`);
    if (this.#bytes > MAIN_THREAD_BYTES) throw new OverMainThreadBudget(`more than ${MAIN_THREAD_BYTES} bytes`);
  }

  /** A point read of a call, loaded only within what is left of the budget. */
  async readCall(req: ReadCallRequest) {
    if (req.includeStorageSize || req.includeTotalStorageSize) throw new OverMainThreadBudget('a call with its storage sizes');
    const read = this.measured.readCallWithin(req, MAIN_THREAD_BYTES - this.#bytes);
    if (read === 'too large') throw new OverMainThreadBudget(`more than ${MAIN_THREAD_BYTES} bytes`);
    this.spend(read.call ? 1 : 0, read.bytes);
    return read.call;
  }

  /**
   * Measures the calls a query would load and spends them, or refuses a query it cannot
   * measure; a measured query is then read at once on the writer's connection (queryCallsNow).
   */
  queryCalls(q: CallsQuery): AsyncIterable<unknown> {
    const filter = q.filter ?? {};
    const keys = Object.keys(filter).filter((k) => (filter as Record<string, unknown>)[k] != null);
    const only = !q.query && keys.length === 1 ? keys[0] : null;
    let size: { rows: number; bytes: number };
    if (only === 'call_ids') size = this.measured.storedSize(q.projectId, { ids: filter.call_ids! });
    else if (only === 'parent_ids') size = this.measured.storedSize(q.projectId, { parentIds: filter.parent_ids! });
    else throw new OverMainThreadBudget('calls of a query it cannot measure first');
    this.spend(size.rows, size.bytes);
    return eachOf(this.measured.queryCallsNow(q));
  }

  /** Another read's result, its rows spent as they arrive. */
  counted(result: unknown): unknown {
    if (result instanceof Promise) return result.then((value: unknown) => (Array.isArray(value) && this.spend(value.length), value));
    if (!isAsyncIterable(result)) return result;
    return this.#eachSpent(result);
  }

  async *#eachSpent(rows: AsyncIterable<unknown>): AsyncIterable<unknown> {
    for await (const row of rows) {
      this.spend(1);
      yield row;
    }
  }
}

/** The store's handler: each group of methods (calls, objects, ...) behind a BudgetedGroupHandler. */
class BudgetedStoreHandler implements ProxyHandler<Store> {
  readonly #groups = new Map<string, object>();
  constructor(readonly budget: ReadBudget) {}

  get(target: Store, prop: string | symbol): unknown {
    const value: unknown = Reflect.get(target, prop, target);
    if (typeof prop !== 'string' || value === null || typeof value !== 'object' || prop === 'db') return value;
    let group = this.#groups.get(prop);
    if (!group) this.#groups.set(prop, (group = new Proxy(value, new BudgetedGroupHandler(this.budget, prop))));
    return group;
  }
}

/** A group's handler: calls are measured before they are read (and not counted again), the rest counted. */
class BudgetedGroupHandler implements ProxyHandler<object> {
  constructor(
    readonly budget: ReadBudget,
    readonly group: string,
  ) {}

  get(target: object, method: string | symbol): unknown {
    const fn: unknown = Reflect.get(target, method, target);
    if (typeof fn !== 'function' || typeof method !== 'string') return fn;
    const budget = this.budget;
    if (this.group === 'calls' && method === 'readCall') return (req: ReadCallRequest) => budget.readCall(req);
    if (this.group === 'calls' && method === 'queryCalls') return (q: CallsQuery) => budget.queryCalls(q);
    return (...args: unknown[]) => budget.counted((fn as (...a: unknown[]) => unknown).apply(target, args));
  }
}

/** Rows read at once, as the async iterable queryCalls answers. */
async function* eachOf<T>(rows: T[]): AsyncIterable<T> {
  yield* rows;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
