/**
 * How a stored feedback row becomes wire-shaped `Feedback`, for every backend: the row holds
 * the feedback table's columns under their names, `payload` and the scorer's collections as
 * JSON text and `created_at` as epoch microseconds (a backend whose driver returns integers as
 * text converts first). The columns `/feedback/query` can name are the same on every backend.
 */
import type { Feedback, ScorerFeedback } from '../../../contract/feedback.js';
import { formatMicros } from '../../core/datetime.js';
import type { TableColumns } from './tablePlan.js';

/**
 * The scorer's typed collections (contract ScorerFeedbackFields), stored as JSON text and never
 * NULL: a row without them holds the empty list or object, which is what reads and
 * `/feedback/query` answer for it, as the reference's Array and Map columns do.
 */
const SCORER_JSON_COLUMNS = {
  scorer_tags: '[]',
  scorer_tag_reasons: '{}',
  scorer_tag_confidences: '{}',
  scorer_ratings: '{}',
  scorer_rating_reasons: '{}',
  scorer_rating_confidences: '{}',
} as const;
/** The scorer's typed text fields; NULL when not given. */
const SCORER_TEXT_COLUMNS = [
  'scorer_trace_id',
  'span_agent_name',
  'span_agent_version',
  'span_conversation_id',
  'span_status_code',
  'span_trace_id',
] as const;
type ScorerJsonColumn = keyof typeof SCORER_JSON_COLUMNS;
type ScorerTextColumn = (typeof SCORER_TEXT_COLUMNS)[number];

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
  ...Object.fromEntries(Object.keys(SCORER_JSON_COLUMNS).map((c) => [c, 'json'])),
  ...Object.fromEntries(SCORER_TEXT_COLUMNS.map((c) => [c, 'text'])),
};

/** The stored values of the scorer columns, by column name, for a write. */
export function scorerColumnValues(scorer: ScorerFeedback | undefined): Record<ScorerJsonColumn | ScorerTextColumn, string | null> {
  const out = {} as Record<ScorerJsonColumn | ScorerTextColumn, string | null>;
  for (const [column, empty] of Object.entries(SCORER_JSON_COLUMNS) as [ScorerJsonColumn, string][]) {
    const value = scorer?.[column];
    out[column] = value == null ? empty : JSON.stringify(value);
  }
  for (const column of SCORER_TEXT_COLUMNS) out[column] = scorer?.[column] ?? null;
  return out;
}

export interface FeedbackRow extends Record<ScorerJsonColumn, string | null>, Record<ScorerTextColumn, string | null> {
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
export const scorerJson = <T>(column: ScorerJsonColumn, text: string | null | undefined): T =>
  JSON.parse(text ?? SCORER_JSON_COLUMNS[column]) as T;

export const feedbackFromRow = (r: FeedbackRow): Feedback => ({
  ...r,
  created_at: formatMicros(r.created_at),
  payload: JSON.parse(r.payload),
  scorer_tags: scorerJson('scorer_tags', r.scorer_tags),
  scorer_tag_reasons: scorerJson('scorer_tag_reasons', r.scorer_tag_reasons),
  scorer_tag_confidences: scorerJson('scorer_tag_confidences', r.scorer_tag_confidences),
  scorer_ratings: scorerJson('scorer_ratings', r.scorer_ratings),
  scorer_rating_reasons: scorerJson('scorer_rating_reasons', r.scorer_rating_reasons),
  scorer_rating_confidences: scorerJson('scorer_rating_confidences', r.scorer_rating_confidences),
});
