/**
 * The fields threads can be sorted by, without zod: the dashboard imports this list, and
 * importing it from threads.ts would pull the schemas (and zod) into the browser bundle.
 */

/** The reference's six sort fields (others answer 400 there). */
export const REFERENCE_THREAD_SORT_FIELDS = [
  'thread_id',
  'turn_count',
  'start_time',
  'last_updated',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
] as const;

/**
 * Every field Weft sorts threads by: the reference's six, then Weft extensions over the
 * statistics Weft adds to ThreadSchema. Reference clients never send the extensions.
 */
export const THREAD_SORT_FIELDS = [...REFERENCE_THREAD_SORT_FIELDS, 'error_count', 'total_tokens', 'total_cost'] as const;
