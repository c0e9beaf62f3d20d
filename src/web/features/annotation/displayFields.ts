/**
 * The call fields a queue's reviewers see. The queue keeps its choice (`display_fields`, a Weft
 * extension of the queue API); each item also keeps the fields it was added with, which is all a
 * queue created by a Weave client has. Adding calls copies the queue's choice onto the new items,
 * so Weave clients reading items see the same fields.
 */

/** Fields a reviewer sees when nothing was chosen. */
export const DEFAULT_DISPLAY_FIELDS = ['inputs', 'output'];

/** The fields to show: the queue's choice, else the item's own, else inputs and output. */
export function shownFields(queueFields: string[] | null | undefined, itemFields: string[] = []): string[] {
  if (queueFields && queueFields.length > 0) return queueFields;
  return itemFields.length > 0 ? itemFields : DEFAULT_DISPLAY_FIELDS;
}

/** Cleans a typed list of paths: trimmed, no blanks, no repeats. */
export function normalizeFields(fields: string[]): string[] {
  return [...new Set(fields.map((f) => f.trim()).filter(Boolean))];
}
