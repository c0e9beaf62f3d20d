/**
 * Writing queues: create or edit one (its new questions become AnnotationSpec objects first,
 * then the queue points at them and keeps its reviewer fields), delete one, and submit a
 * reviewer's answers on an item. Each mutation refreshes the project's annotation queries by
 * key prefix; a submit also refreshes the feedback and calls it wrote to.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { buildSpecValue, objectRef, type AnnotationField } from '../../lib/annotationSpec.js';
import type { ReqOf } from '../../../contract/endpoints.js';
import { callKeys } from '../../entities/calls/callQueries.js';
import { feedbackKeys } from '../../entities/feedback/feedbackQueries.js';
import { api } from '../../lib/api.js';
import { annotationKeys, myAnswersQueryOptions, queueItemsQueryOptions, type MyAnswer, type QueueItem } from './annotationQueries.js';
import { normalizeFields } from './displayFields.js';
import type { QueueField } from './queueFields.js';

/** A question written in the queue form, not stored yet. */
export interface SpecDraft {
  name: string;
  description: string;
  kind: AnnotationField;
}

/** One entry of the form's question list: an existing spec, or a new one. */
export type FieldEntry = { type: 'existing'; field: QueueField } | { type: 'new'; draft: SpecDraft };

/** Everything the queue form edits. */
export interface QueueDraft {
  name: string;
  description: string;
  fields: FieldEntry[];
  displayFields: string[];
}

/** Stores new specs, then creates or updates the queue; resolves to the queue id. */
export async function saveQueue({
  projectId,
  queueId,
  draft,
}: {
  projectId: string;
  queueId: string | null;
  draft: QueueDraft;
}): Promise<string> {
  const refs: string[] = [];
  for (const entry of draft.fields) {
    if (entry.type === 'existing') {
      refs.push(entry.field.ref);
      continue;
    }
    const { name, description, kind } = entry.draft;
    const { digest } = await api.objCreate({
      obj: { project_id: projectId, object_id: name, val: buildSpecValue({ name, description, field: kind }) },
    });
    refs.push(objectRef({ projectId, name, digest }));
  }
  const common = {
    project_id: projectId,
    name: draft.name.trim(),
    description: draft.description.trim(),
    scorer_refs: refs,
    display_fields: normalizeFields(draft.displayFields),
  };
  return queueId
    ? (await api.annotationQueueUpdate({ ...common, queue_id: queueId })).queue.id
    : (await api.annotationQueueCreate(common)).id;
}

/** Create-or-edit mutation; refreshes the project's queues and specs. */
export function useSaveQueue(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ queueId, draft }: { queueId: string | null; draft: QueueDraft }) => saveQueue({ projectId, queueId, draft }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
}

/** Delete mutation (a soft delete: the queue and its items disappear from every list). */
export function useDeleteQueue(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (queueId: string) => api.annotationQueueDelete({ project_id: projectId, queue_id: queueId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
}

/** One answer as the submit endpoint takes it. */
export type Answer = ReqOf<'annotationQueueItemSubmit'>['annotations'][number];

/** What one submit (or skip) sends for an item. */
export interface ItemSubmission {
  item: QueueItem;
  annotations: Answer[];
  skip: boolean;
  /** Editing an item I already answered: my earlier answers on it are superseded. */
  replace: boolean;
}

/**
 * Submits (or skips) a queue item as the signed-in reviewer. The item's new state and my answers
 * go straight into their caches (the review moves on without a refetch); the queue's counts and
 * results are refreshed; and because the answers are feedback on the item's call, that call's
 * feedback and the project's calls lists are invalidated too, so the trace panel and the calls
 * table show the new annotation as soon as they are next on screen.
 */
export function useSubmitItem({ projectId, queueId, user }: { projectId: string; queueId: string; user: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, annotations, skip, replace }: ItemSubmission) =>
      api.annotationQueueItemSubmit({ project_id: projectId, queue_id: queueId, item_id: item.id, annotations, skip, replace }),
    onSuccess: (res, { item, annotations, replace }) => {
      queryClient.setQueryData(queueItemsQueryOptions({ projectId, queueId }).queryKey, (old) =>
        old?.map((i) => (i.id === item.id ? { ...res.item, position_in_queue: i.position_in_queue } : i)),
      );
      const mine: MyAnswer[] = annotations.map((a) => ({ callId: item.call_id, annotationRef: a.annotation_ref, value: a.value }));
      queryClient.setQueryData(myAnswersQueryOptions({ projectId, queueId, user }).queryKey, (old) => [
        // An edit replaces my answers on the call; a first submit adds to them.
        ...(old ?? []).filter((a) => !replace || a.callId !== item.call_id),
        ...mine,
      ]);
      // The review loader keeps my next item a moment (annotationLoaders.ts): not this one any more.
      queryClient.removeQueries({ queryKey: annotationKeys.allNext(projectId, queueId) });
      void queryClient.invalidateQueries({ queryKey: annotationKeys.allStats(projectId) });
      void queryClient.invalidateQueries({ queryKey: annotationKeys.summary(projectId, queueId) });
      void queryClient.invalidateQueries({ queryKey: annotationKeys.results(projectId, queueId) });
      if (annotations.length > 0) {
        void queryClient.invalidateQueries({ queryKey: feedbackKeys.call(projectId, item.call_id) });
        void queryClient.invalidateQueries({ queryKey: callKeys.project(projectId) });
      }
    },
  });
}
