/**
 * The fields threads can be sorted by, without zod: the dashboard imports this list, and
 * importing it from threads.ts would pull the schemas (and zod) into the browser bundle.
 */
export const THREAD_SORT_FIELDS = [
  'thread_id',
  'turn_count',
  'start_time',
  'last_updated',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
] as const;
