/** An evaluation run's status as a coloured dot and word, in the shared status styles. */
import type { EvaluationRun } from '../evaluationQueries.js';

const LOOK: Record<EvaluationRun['status'], { className: string; label: string }> = {
  completed: { className: 'status-success', label: 'Completed' },
  failed: { className: 'status-error', label: 'Failed' },
  running: { className: 'status-running', label: 'Running' },
};

/** Run status badge; `detail` (e.g. "12 of 40 rows") follows the word. */
export function RunStatus({ status, detail }: { status: EvaluationRun['status']; detail?: string }) {
  const look = LOOK[status];
  return (
    <span className={`status ${look.className}`}>
      <span className="status-dot" aria-hidden="true" />
      {look.label}
      {detail && <span className="muted small">{detail}</span>}
    </span>
  );
}
