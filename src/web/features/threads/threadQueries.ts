/**
 * Threads data through react-query: the threads list (infinite: the endpoint has no count, so
 * each page asks for one row more than it shows to learn whether another page exists), one
 * thread's statistics, and a thread's turns (the calls with `turn_id == id`, oldest first).
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import type { ThreadSchema } from '../../../contract/threads.js';
import { api, collect } from '../../lib/api.js';
import type { Call } from '../../entities/calls/callFields.js';
import { callKeys } from '../../entities/calls/callQueries.js';

/** A thread with its statistics, as the list and the thread page receive it. */
export type Thread = ThreadSchema;

/** The list request without paging: what a threads view asks for. */
export type ThreadsListReq = Omit<ReqOf<'threadsStreamQuery'>, 'limit' | 'offset'>;

/** Threads per list page. */
export const THREADS_PAGE_SIZE = 100;
/** Turns per page of a thread (each turn carries its inputs and output). */
export const TURNS_PAGE_SIZE = 50;

/** One page of the list, and whether the server has more after it. */
export interface ThreadsPage {
  rows: Thread[];
  hasMore: boolean;
}

/** Query keys for threads. Turns are calls, so they nest under the project's call keys. */
export const threadKeys = {
  all: ['threads'] as const,
  project: (projectId: string) => [...threadKeys.all, projectId] as const,
  list: (req: ThreadsListReq) => [...threadKeys.project(req.project_id), 'list', req] as const,
  count: (req: ThreadsListReq) => [...threadKeys.project(req.project_id), 'count', req.filter ?? null] as const,
  detail: (projectId: string, threadId: string) => [...threadKeys.project(projectId), 'detail', threadId] as const,
  turns: (projectId: string, threadId: string) => [...callKeys.project(projectId), 'thread', threadId, 'turns'] as const,
};

/** The threads list for a view, page by page as the table scrolls. */
export function threadsListQueryOptions(req: ThreadsListReq) {
  return infiniteQueryOptions({
    queryKey: threadKeys.list(req),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<ThreadsPage> => {
      const rows = await collect(
        api.threadsStreamQuery({ ...req, limit: THREADS_PAGE_SIZE + 1, offset: pageParam * THREADS_PAGE_SIZE }, { signal }),
      );
      return { rows: rows.slice(0, THREADS_PAGE_SIZE), hasMore: rows.length > THREADS_PAGE_SIZE };
    },
    getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
  });
}

/** Exactly how many threads a view's filter matches (Weft's `/threads/query_stats`). */
export function threadsCountQueryOptions(req: ThreadsListReq) {
  return queryOptions({
    queryKey: threadKeys.count(req),
    queryFn: async ({ signal }) => (await api.threadsQueryStats({ project_id: req.project_id, filter: req.filter }, { signal })).count,
  });
}

/** One thread's statistics, or null when the project has no such thread. */
export function threadQueryOptions({ projectId, threadId }: { projectId: string; threadId: string }) {
  return queryOptions({
    queryKey: threadKeys.detail(projectId, threadId),
    queryFn: async ({ signal }) => {
      const rows = await collect(
        api.threadsStreamQuery({ project_id: projectId, filter: { thread_ids: [threadId] }, limit: 1 }, { signal }),
      );
      return rows[0] ?? null;
    },
  });
}

/** What the turn list and the conversation need of each turn. */
const TURN_COLUMNS = [
  'id',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'display_name',
  'started_at',
  'ended_at',
  'exception',
  'summary',
  'inputs',
  'output',
];

/** A thread's turns in start order: only calls that are their own turn (`turn_id == id`). */
export function threadTurnsQueryOptions({ projectId, threadId }: { projectId: string; threadId: string }) {
  return infiniteQueryOptions({
    queryKey: threadKeys.turns(projectId, threadId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      collect<Call>(
        api.callsStreamQuery(
          {
            project_id: projectId,
            filter: { thread_ids: [threadId] },
            // Field-to-field comparison: nested calls of a turn share its turn_id but differ in id.
            query: { $expr: { $eq: [{ $getField: 'turn_id' }, { $getField: 'id' }] } },
            sort_by: [{ field: 'started_at', direction: 'asc' }],
            columns: TURN_COLUMNS,
            limit: TURNS_PAGE_SIZE,
            offset: pageParam * TURNS_PAGE_SIZE,
          },
          { signal },
        ),
      ),
    getNextPageParam: (last, _all, lastParam) => (last.length === TURNS_PAGE_SIZE ? lastParam + 1 : undefined),
  });
}
