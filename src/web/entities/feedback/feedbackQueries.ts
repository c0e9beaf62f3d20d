/**
 * Feedback data through react-query: one call's feedback rows, and the writes the detail panel
 * makes (create, replace, remove). Every write refreshes that call's feedback at once and marks
 * the project's calls stale without refetching them, so the calls table shows the change when
 * it is next opened, while an open trace of thousands of calls is not reloaded per click.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api } from '../../lib/api.js';
import { callKeys } from '../calls/callQueries.js';
import { callRef, type FeedbackRow } from './feedbackModel.js';

/** Query keys for feedback. */
export const feedbackKeys = {
  all: ['feedback'] as const,
  project: (projectId: string) => [...feedbackKeys.all, projectId] as const,
  call: (projectId: string, callId: string) => [...feedbackKeys.project(projectId), 'call', callId] as const,
  specs: (projectId: string) => [...feedbackKeys.project(projectId), 'specs'] as const,
};

/** Every feedback row about one call, oldest first. */
export function callFeedbackQueryOptions({ projectId, callId }: { projectId: string; callId: string }) {
  return queryOptions({
    queryKey: feedbackKeys.call(projectId, callId),
    queryFn: async ({ signal }) => {
      const { result } = await api.feedbackQuery(
        {
          project_id: projectId,
          query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: callRef(projectId, callId) }] } },
          sort_by: [{ field: 'created_at', direction: 'asc' }],
        },
        { signal },
      );
      return result as FeedbackRow[];
    },
  });
}

/** What a new feedback row needs besides the call: its type and payload (and spec ref). */
export type FeedbackInput = Pick<ReqOf<'feedbackCreate'>, 'feedback_type' | 'payload' | 'annotation_ref'>;

/** Create, replace and remove feedback on one call. */
export function useFeedbackMutations({ projectId, callId }: { projectId: string; callId: string }) {
  const queryClient = useQueryClient();
  const onSettled = async () => {
    void queryClient.invalidateQueries({ queryKey: callKeys.project(projectId), refetchType: 'none' });
    await queryClient.invalidateQueries({ queryKey: feedbackKeys.call(projectId, callId) });
  };
  const base = { project_id: projectId, weave_ref: callRef(projectId, callId) };
  const create = useMutation({
    mutationFn: (input: FeedbackInput) => api.feedbackCreate({ ...base, ...input }),
    onSettled,
  });
  const replace = useMutation({
    mutationFn: ({ feedbackId, ...input }: FeedbackInput & { feedbackId: string }) =>
      api.feedbackReplace({ ...base, ...input, feedback_id: feedbackId }),
    onSettled,
  });
  const remove = useMutation({
    mutationFn: (feedbackId: string) =>
      api.feedbackPurge({ project_id: projectId, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: feedbackId }] } } }),
    onSettled,
  });
  return { create, replace, remove };
}
