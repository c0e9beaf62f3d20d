/**
 * Exact percentiles by linear interpolation between order statistics: the definition of
 * numpy's default `percentile` (method "linear"): with sorted values v and n = v.length,
 * position p = (n − 1)·q, result = v[⌊p⌋] + (v[⌈p⌉] − v[⌊p⌋])·(p − ⌊p⌋).
 */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
