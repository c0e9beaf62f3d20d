/** A right-aligned figure; null shows a quiet dash so columns stay scannable. */
import type { ReactNode } from 'react';

/** Number cell with an already formatted value. */
export function NumberCell({
  value,
  format,
  title,
}: {
  value: number | null | undefined;
  format: (n: number) => string;
  title?: string;
}): ReactNode {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return (
    <span className="num" title={title}>
      {format(value)}
    </span>
  );
}
