/** A call's status (`summary.weave.status`) as a coloured dot and word. */
import { STATUS_LABELS } from './statusLabels.js';

/** Status dot + label; unknown statuses show as given. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`status status-${status}`}>
      <span className="status-dot" aria-hidden="true" />
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}
