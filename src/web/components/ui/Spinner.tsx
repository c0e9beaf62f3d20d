/** A small loading indicator with an accessible label. */

/** Spinner plus optional visible label. */
export function Spinner({ label = 'Loading', showLabel = false }: { label?: string; showLabel?: boolean }) {
  return (
    <span className="spinner-wrap" role="status" aria-label={label}>
      <span className="spinner" aria-hidden="true" />
      {showLabel && <span className="muted">{label}</span>}
    </span>
  );
}
