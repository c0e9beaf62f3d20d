/** How threads sort (the thread query's `sort_by`), backend-neutral. */
import { THREAD_SORT_FIELDS } from '../../../contract/threadSortFields.js';
import type { ThreadRecord, ThreadsQuery } from '../ThreadsStore.js';

/**
 * A sort key as a column of the thread row a backend sorts in SQL: both stores name those
 * columns as the contract names the fields. Only a field of the contract's list gets through
 * (a whitelist: nothing from the request enters SQL).
 */
export function threadSortColumn(field: ThreadsQuery['sortBy'][number]['field']): string {
  if (!(THREAD_SORT_FIELDS as readonly string[]).includes(field)) throw new Error(`Unknown thread sort field "${field}"`);
  return field;
}

/**
 * The order of threads, for statistics computed in memory: by each key in turn, NULL lowest
 * (first ascending, last descending, as SQLite orders thread_stats), ties by thread_id
 * ascending. A backend sorting in SQL must give the same order.
 */
export function compareThreads(sortBy: ThreadsQuery['sortBy']): (a: ThreadRecord, b: ThreadRecord) => number {
  const key: Record<ThreadsQuery['sortBy'][number]['field'], (r: ThreadRecord) => number | string | null> = {
    thread_id: (r) => r.threadId,
    turn_count: (r) => r.turnCount,
    start_time: (r) => r.startTime,
    last_updated: (r) => r.lastUpdated,
    p50_turn_duration_ms: (r) => r.p50TurnDurationMs,
    p99_turn_duration_ms: (r) => r.p99TurnDurationMs,
    error_count: (r) => r.errorCount,
    total_tokens: (r) => r.totalTokens,
    total_cost: (r) => r.totalCost,
  };
  return (a: ThreadRecord, b: ThreadRecord): number => {
    for (const s of sortBy) {
      const x = key[s.field](a);
      const y = key[s.field](b);
      const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
      if (c !== 0) return s.direction === 'desc' ? -c : c;
    }
    return a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0;
  };
}
