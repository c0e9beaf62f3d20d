/**
 * How a stored feedback row becomes wire-shaped `Feedback`, for every backend: the row holds
 * the feedback table's columns under their names, `payload` as JSON text and `created_at` as
 * epoch microseconds (a backend whose driver returns integers as text converts first).
 */
import type { Feedback } from '../../../contract/feedback.js';
import { formatMicros } from '../../core/datetime.js';

export interface FeedbackRow {
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

export const feedbackFromRow = (r: FeedbackRow): Feedback => ({
  ...r,
  created_at: formatMicros(r.created_at),
  payload: JSON.parse(r.payload),
});
