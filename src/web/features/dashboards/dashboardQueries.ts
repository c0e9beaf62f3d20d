/**
 * Dashboard data through react-query: call and usage time series (`/calls/stats`), feedback
 * payload paths and their time series (`/feedback/payload_schema`, `/feedback/stats`), and the
 * op names seen lately (for the op filter). Keys nest under the project's calls and feedback
 * keys' neighbours so `statsKeys.project(id)` refreshes everything here.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api, collect } from '../../lib/api.js';

/** `/calls/stats` request. */
export type CallStatsRequest = ReqOf<'callStats'>;
/** `/feedback/stats` request. */
export type FeedbackStatsRequest = ReqOf<'feedbackStats'>;
/** `/feedback/payload_schema` request. */
export type FeedbackSchemaRequest = ReqOf<'feedbackPayloadSchema'>;

/** Query keys for statistics. */
export const statsKeys = {
  all: ['stats'] as const,
  project: (projectId: string) => [...statsKeys.all, projectId] as const,
  calls: (req: CallStatsRequest) => [...statsKeys.project(req.project_id), 'calls', req] as const,
  feedbackSchema: (req: FeedbackSchemaRequest) => [...statsKeys.project(req.project_id), 'feedbackSchema', req] as const,
  feedback: (req: FeedbackStatsRequest) => [...statsKeys.project(req.project_id), 'feedback', req] as const,
  ops: (projectId: string) => [...statsKeys.project(projectId), 'ops'] as const,
};

/** Call and usage buckets for one window and filter. */
export function callStatsQueryOptions(req: CallStatsRequest) {
  return queryOptions({
    queryKey: statsKeys.calls(req),
    queryFn: ({ signal }) => api.callStats(req, { signal }),
    staleTime: 30_000,
  });
}

/** Feedback payload paths seen in the window, with their value types. */
export function feedbackSchemaQueryOptions(req: FeedbackSchemaRequest) {
  return queryOptions({
    queryKey: statsKeys.feedbackSchema(req),
    queryFn: ({ signal }) => api.feedbackPayloadSchema(req, { signal }),
    staleTime: 30_000,
  });
}

/** Feedback buckets for the given payload metrics. */
export function feedbackStatsQueryOptions(req: FeedbackStatsRequest) {
  return queryOptions({
    queryKey: statsKeys.feedback(req),
    queryFn: ({ signal }) => api.feedbackStats(req, { signal }),
    staleTime: 30_000,
  });
}

/** The short name of an op: a ref's object name (`weave:///e/p/op/name:digest` → `name`), else itself. */
export function opShortName(opName: string): string {
  const m = /\/op\/([^/:]+):[^/]*$/.exec(opName);
  return m ? m[1]! : opName;
}

/** Distinct op names (short) among the project's 1,000 most recent calls, sorted. */
export function recentOpsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: statsKeys.ops(projectId),
    queryFn: async ({ signal }) => {
      const calls = await collect<{ op_name?: string }>(
        api.callsStreamQuery(
          { project_id: projectId, columns: ['op_name'], limit: 1000, sort_by: [{ field: 'started_at', direction: 'desc' }] },
          { signal },
        ),
      );
      return [...new Set(calls.flatMap((c) => (c.op_name ? [opShortName(c.op_name)] : [])))].sort();
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * `op_names` for an op filter: every version of an SDK op (`…/op/<name>:*`) and the raw name
 * (OTel spans), matching what the calls page's "op name equals" clause matches.
 */
export function opNamesFilter({ projectId, op }: { projectId: string; op: string }): string[] {
  return op.includes('/') ? [op] : [`weave:///${projectId}/op/${op}:*`, op];
}
