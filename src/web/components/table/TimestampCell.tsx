/** A timestamp shown relative ("3m ago") with the exact local time on hover. */
import { formatDateTime, formatRelative } from '../../lib/format.js';

/** Timestamp cell. */
export function TimestampCell({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={`${formatDateTime(iso)} (${iso})`}>
      {formatRelative(iso)}
    </time>
  );
}
