/** Threads: statistics over each thread's turn calls, filtered, sorted and paged (Store.ts). */
import type { ThreadRange, ThreadSortBy } from '../../contract/threads.js';
import type { ThreadStats } from '../core/threadStats.js';

/** A thread query, resolved: times in epoch microseconds, sort keys validated. */
export interface ThreadsQuery {
  projectId: string;
  afterMicros?: number | null;
  beforeMicros?: number | null;
  threadIds?: string[] | null;
  /** Weft: words all found in the turns' text (each a prefix), a substring of a turn (docs/search.md), or the exact thread id. */
  search?: string | null;
  /** Weft: inclusive bounds on the statistics. */
  min?: ThreadRange | null;
  max?: ThreadRange | null;
  /** Weft: some turn's attributes hold each value (dotted keys). */
  attributes?: Record<string, string | number | boolean> | null;
  sortBy: ThreadSortBy[];
  limit?: number | null;
  offset?: number | null;
}

/** A thread's statistics over its live turn calls (times in epoch microseconds). */
export interface ThreadRecord extends ThreadStats {
  threadId: string;
  /** Priced usage of the turns; null when no model of it has a price. */
  totalCost: number | null;
}

export interface ThreadsStore {
  /** Threads with statistics from turn calls only, sorted, ties by thread_id ascending. */
  queryThreads(query: ThreadsQuery): AsyncIterable<ThreadRecord>;
  /** How many threads the query's filters match (sort, limit and offset ignored). */
  countThreads(query: ThreadsQuery): Promise<number>;
  /** Inputs of the given (first) turns and outputs of the given (last) turns, as JSON cut to 300 chars. */
  previews(
    projectId: string,
    ids: { firstInput: string[]; lastOutput: string[] },
  ): Promise<{ firstInput: Map<string, string | null>; lastOutput: Map<string, string | null> }>;
}
