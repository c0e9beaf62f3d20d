/**
 * The call fields a queue's reviewers see. The wire API keeps them per item (`display_fields`,
 * fixed when calls are added) and has no place for them on the queue, yet a queue's fields are
 * chosen with the queue and may change later. So Weft keeps the queue's choice in a small
 * versioned object, `AnnotationQueueView`, named after the queue: the review page reads it
 * first and falls back to each item's own `display_fields`; adding calls copies it onto the
 * new items, so Weave clients reading items see the same fields.
 */
import { api } from '../../lib/api.js';

/** Fields a reviewer sees when nothing was chosen. */
export const DEFAULT_DISPLAY_FIELDS = ['inputs', 'output'];

/** The fields to show: the queue's choice, else the item's own, else inputs and output. */
export function shownFields(queueFields: string[] | null | undefined, itemFields: string[] = []): string[] {
  if (queueFields && queueFields.length > 0) return queueFields;
  return itemFields.length > 0 ? itemFields : DEFAULT_DISPLAY_FIELDS;
}

/** The object id holding a queue's view. */
export function queueViewObjectId(queueId: string): string {
  return `annotation-queue-view.${queueId}`;
}

/** The queue's chosen fields, or null when it has none (created elsewhere, say by an SDK). */
export async function readQueueView({ projectId, queueId, signal }: { projectId: string; queueId: string; signal?: AbortSignal }): Promise<string[] | null> {
  // A query rather than a read: a queue without a view is normal, not a 404.
  const { objs } = await api.objsQuery({ project_id: projectId, filter: { object_ids: [queueViewObjectId(queueId)], latest_only: true } }, { signal });
  const fields = (objs[0]?.val as { display_fields?: unknown } | undefined)?.display_fields;
  return Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : null;
}

/** Stores the queue's fields as a new version of its view object. */
export async function writeQueueView({ projectId, queueId, displayFields }: { projectId: string; queueId: string; displayFields: string[] }): Promise<void> {
  await api.objCreate({
    obj: {
      project_id: projectId,
      object_id: queueViewObjectId(queueId),
      val: {
        _type: 'AnnotationQueueView',
        _class_name: 'AnnotationQueueView',
        _bases: ['Object', 'BaseModel'],
        queue_id: queueId,
        display_fields: displayFields,
      },
    },
  });
}

/** Cleans a typed list of paths: trimmed, no blanks, no repeats. */
export function normalizeFields(fields: string[]): string[] {
  return [...new Set(fields.map((f) => f.trim()).filter(Boolean))];
}
