/** Who gave a piece of feedback and when: `admin · 5m ago`, the exact time on hover. */
import { formatDateTime, formatRelative } from '../../lib/format.js';
import type { FeedbackRow } from '../../entities/feedback/feedbackModel.js';
import './feedback.css';

/** Author and relative time of one feedback row. */
export function FeedbackMeta({ row }: { row: Pick<FeedbackRow, 'wb_user_id' | 'created_at'> }) {
  return (
    <span className="fb-meta">
      <span className="fb-author">{row.wb_user_id ?? 'unknown'}</span>
      <span aria-hidden="true"> · </span>
      <time dateTime={row.created_at} title={formatDateTime(row.created_at)}>
        {formatRelative(row.created_at)}
      </time>
    </span>
  );
}

/** `admin (5m ago), alice (1h ago)`: the people behind a reaction, for its tooltip. */
export function describeAuthors(rows: readonly Pick<FeedbackRow, 'wb_user_id' | 'created_at'>[]): string {
  return rows.map((r) => `${r.wb_user_id ?? 'unknown'} (${formatRelative(r.created_at)})`).join(', ');
}
