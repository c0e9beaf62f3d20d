/** Where a line chart over buckets has gaps: the points no segment reaches. */

/** A row with numeric (or missing) series values. */
export type GapRow = Readonly<Record<string, number | null>>;

/** The indices of values with no value on either side: a line draws nothing there, so they get a dot. */
export function isolatedPoints(rows: readonly GapRow[], key: string): Set<number> {
  const has = (i: number) => typeof rows[i]?.[key] === 'number';
  const out = new Set<number>();
  rows.forEach((_, i) => {
    if (has(i) && !has(i - 1) && !has(i + 1)) out.add(i);
  });
  return out;
}
