/** A call's status (`summary.weave.status`) as a coloured dot and word. */

const LABELS: Record<string, string> = {
  success: 'Success',
  error: 'Error',
  running: 'Running',
  descendant_error: 'Child error',
};

/** Status dot + label; unknown statuses show as given. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`status status-${status}`}>
      <span className="status-dot" aria-hidden="true" />
      {LABELS[status] ?? status}
    </span>
  );
}
