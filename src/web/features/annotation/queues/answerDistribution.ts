/**
 * The rows of a question's answer distribution, in the question's own order: a 1–5 score reads
 * 1, 2, 3, 4, 5 and a category its options in order, each with its count (0 when nobody chose
 * it), so the bars read as a scale rather than as a ranking.
 */
import type { AnnotationField } from '../../../lib/annotationSpec.js';
import { allChoices } from '../queueFields.js';

/** One value with how many answers gave it. */
export interface DistributionRow {
  value: unknown;
  count: number;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The question's choices first, in order; answers outside them after, numbers ascending, the rest by count. */
export function distributionRows(counts: readonly DistributionRow[], kind: AnnotationField): DistributionRow[] {
  const choices = allChoices(kind) ?? [];
  const scale = choices.map((c) => ({ value: c.value, count: counts.find((r) => sameValue(r.value, c.value))?.count ?? 0 }));
  const others = counts
    .filter((r) => !choices.some((c) => sameValue(r.value, c.value)))
    .sort((a, b) =>
      typeof a.value === 'number' && typeof b.value === 'number'
        ? a.value - b.value
        : typeof a.value === 'number'
          ? -1
          : typeof b.value === 'number'
            ? 1
            : b.count - a.count,
    );
  return [...scale, ...others];
}
