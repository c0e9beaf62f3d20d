/**
 * Writing queues: create or edit one (its new questions become AnnotationSpec objects first,
 * then the queue points at them and keeps its reviewer fields), and delete one. Each
 * mutation refreshes the project's annotation queries by key prefix.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { buildSpecValue, objectRef, type AnnotationField } from '../../lib/annotationSpec.js';
import { api } from '../../lib/api.js';
import { annotationKeys } from './annotationQueries.js';
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
