/**
 * How a stored feedback row becomes wire-shaped `Feedback`, for every backend: the row holds
 * the feedback table's columns under their names, `payload` and the scorer's collections as
 * JSON text and `created_at` as epoch microseconds (a backend whose driver returns integers as
 * text converts first). The columns `/feedback/query` can name are the same on every backend.
 */
import type { Feedback, ScorerFeedback } from '../../../contract/feedback.js';
import { NO_SCORER_FEEDBACK } from '../../../contract/scorerFeedback.js';
import { formatMicros } from '../../core/datetime.js';
import type { TableColumns } from './tablePlan.js';

/**
 * The scorer's typed results are columns of their own, one per field: the collections as JSON
 * text, never NULL (a row without them holds the empty list or object, which reads and
 * `/feedback/query` answer for it), the text fields their default when not given (`""`,
 * `"UNSET"` or NULL; a row written before the defaults holds NULL and reads as the default).
 */
type ScorerColumn = keyof typeof NO_SCORER_FEEDBACK;
const SCORER_COLUMNS = Object.keys(NO_SCORER_FEEDBACK) as ScorerColumn[];
const isCollection = (column: ScorerColumn): boolean =>
  typeof NO_SCORER_FEEDBACK[column] === 'object' && NO_SCORER_FEEDBACK[column] !== null;

/** The columns `/feedback/query` can name, in the order rows list them. */
export const FEEDBACK_COLUMNS: TableColumns = {
  id: 'text',
  project_id: 'text',
  weave_ref: 'text',
  wb_user_id: 'text',
  creator: 'text',
  created_at: 'datetime',
  feedback_type: 'text',
  payload: 'json',
  annotation_ref: 'text',
  runnable_ref: 'text',
  call_ref: 'text',
  trigger_ref: 'text',
  queue_id: 'text',
  ...Object.fromEntries(SCORER_COLUMNS.map((c) => [c, c === 'scorer_tags' ? 'jsonList' : isCollection(c) ? 'json' : 'text'])),
};

/** The stored values of the scorer columns, by column name (in column order), for a write. */
export function scorerColumnValues(scorer: ScorerFeedback | undefined): Record<ScorerColumn, string | null> {
  const out = {} as Record<ScorerColumn, string | null>;
  for (const column of SCORER_COLUMNS) {
    const value = scorer?.[column] ?? null;
    out[column] = isCollection(column)
      ? JSON.stringify(value ?? NO_SCORER_FEEDBACK[column])
      : ((value ?? NO_SCORER_FEEDBACK[column]) as string | null);
  }
  return out;
}

export interface FeedbackRow extends Record<ScorerColumn, string | null> {
  id: string;
  project_id: string;
  weave_ref: string;
  wb_user_id: string | null;
  creator: string | null;
  created_at: number;
  feedback_type: string;
  payload: string;
  annotation_ref: string | null;
  runnable_ref: string | null;
  call_ref: string | null;
  trigger_ref: string | null;
  queue_id: string | null;
}

/** A stored scorer collection, parsed; the empty one for NULL. */
export const scorerJson = <T>(column: ScorerColumn, text: string | null | undefined): T =>
  JSON.parse(text ?? JSON.stringify(NO_SCORER_FEEDBACK[column])) as T;

export function feedbackFromRow(r: FeedbackRow): Feedback {
  const row: Record<string, unknown> = { ...r, created_at: formatMicros(r.created_at), payload: JSON.parse(r.payload) };
  for (const column of SCORER_COLUMNS) {
    if (isCollection(column)) row[column] = scorerJson(column, r[column]);
    else if (column in r) row[column] = r[column] ?? NO_SCORER_FEEDBACK[column];
  }
  return row as Feedback;
}
