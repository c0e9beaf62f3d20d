import './objects.css';
/** Aliases and tags of a version as small read-only pills (aliases accented, `latest` green). */

/** Props: the labels and which kind they are. */
export interface LabelChipsProps {
  labels: readonly string[];
  kind: 'alias' | 'tag';
}

/** Read-only label pills; a quiet dash when there are none. */
export function LabelChips({ labels, kind }: LabelChipsProps) {
  if (labels.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="label-chips" aria-label={kind === 'alias' ? 'Aliases' : 'Tags'}>
      {labels.map((label) => (
        <li key={label} className={labelClass(kind, label)} title={label}>
          {label}
        </li>
      ))}
    </ul>
  );
}

/** The pill class of a label. */
export function labelClass(kind: 'alias' | 'tag', label: string): string {
  return `label-chip is-${kind}${kind === 'alias' && label === 'latest' ? ' is-latest' : ''}`;
}
