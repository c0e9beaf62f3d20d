/**
 * The store a request served on the main thread sees (threadedApp.ts ON_MAIN_WHEN_SMALL): its
 * reads run on the writer's own connection, its writes join the group commit like a request
 * thread's (storeForwarding.ts), and its reads are held to a row budget. The main thread answers
 * `/health` and moves every other request's bytes, so it may only take work whose size is known
 * to be small. A small body bounds what such a request writes; what it reads depends on what is
 * stored (a prediction's finish reads every score of its row, and a client may have sent
 * thousands), so reads past MAIN_THREAD_ROWS rows in all throw OverMainThreadBudget: a streamed
 * read (an AsyncIterable, as every Store query that pages is) at the row that passes it, a read
 * that answers a whole list as soon as the list arrives.
 * Nothing has been written by then (these requests write last: Store.applyLast), and the caller
 * hands the request, body and all, to a request thread, which serves it from the start.
 */
import type { Store } from '../store/Store.js';
import type { GroupCommitter } from './groupCommit.js';
import { forwardingStore } from './storeForwarding.js';

/**
 * Rows a main-thread request may read. An evaluation's prediction finish reads its row's scores,
 * a few per scorer; 64 leaves room for dozens of scorers while bounding the read to well under a
 * millisecond (a call row is read and parsed in ~5-10 µs).
 */
export const MAIN_THREAD_ROWS = 64;

/** Thrown by a budgeted read past the budget; http/defineRoutes.ts lets it through to the caller. */
export class OverMainThreadBudget extends Error {
  constructor() {
    super(`A request on the main thread read more than ${MAIN_THREAD_ROWS} rows; it goes to a request thread`);
    this.name = 'OverMainThreadBudget';
  }
}

/** The writer's store with its writes going through the group commit, for main-thread requests. */
export function committedStore(store: Store, committer: GroupCommitter): Store {
  return forwardingStore(store, (ops) => committer.submit(ops));
}

/** `store` for one request, its reads counted together against MAIN_THREAD_ROWS (see above). */
export function budgetedStore(store: Store): Store {
  let rows = 0;
  const spend = (n: number) => {
    rows += n;
    if (rows > MAIN_THREAD_ROWS) throw new OverMainThreadBudget();
  };
  const counted = (result: unknown): unknown => {
    if (result instanceof Promise) return result.then((value: unknown) => (Array.isArray(value) && spend(value.length), value));
    if (!isAsyncIterable(result)) return result;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const row of result) {
          spend(1);
          yield row;
        }
      },
    };
  };
  const groups = new Map<string | symbol, object>();
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || value === null || typeof value !== 'object' || prop === 'db') return value;
      let group = groups.get(prop);
      if (!group)
        groups.set(
          prop,
          (group = new Proxy(value, {
            get(t, method) {
              const fn: unknown = Reflect.get(t, method, t);
              if (typeof fn !== 'function') return fn;
              return (...args: unknown[]) => counted((fn as (...a: unknown[]) => unknown).apply(t, args));
            },
          })),
        );
      return group;
    },
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
