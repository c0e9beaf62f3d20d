/**
 * How far raters agree on categorical answers: Cohen's κ for two raters over paired answers,
 * Krippendorff's α (nominal) for any number of raters with missing answers, and the confusion
 * matrix behind κ. Answers are compared as labels (see `labelOf`); docs/judge-agreement.md
 * gives the formulas and a worked example the tests check.
 */

/** An answer as a category: strings as they are (trimmed), anything else as its JSON. */
export function labelOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

export interface Confusion {
  /** Every label either rater used, sorted. */
  labels: string[];
  /** counts[i][j]: pairs where the first rater said labels[i] and the second labels[j]. */
  counts: number[][];
}

/** The confusion matrix of paired labels (first rater in rows). */
export function confusionOf(pairs: readonly (readonly [string, string])[]): Confusion {
  const labels = [...new Set(pairs.flat())].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const index = new Map(labels.map((l, i) => [l, i]));
  const counts = labels.map(() => labels.map(() => 0));
  for (const [a, b] of pairs) counts[index.get(a)!]![index.get(b)!]! += 1;
  return { labels, counts };
}

/** Share of pairs with the same label; null without pairs. */
export function percentAgreement(pairs: readonly (readonly [string, string])[]): number | null {
  if (pairs.length === 0) return null;
  return pairs.filter(([a, b]) => a === b).length / pairs.length;
}

/**
 * Cohen's κ = (pₒ − pₑ) / (1 − pₑ): observed agreement corrected for the agreement the two
 * raters' label frequencies give by chance. Null without pairs, or when chance agreement is
 * certain (both raters always gave the one same label: κ is undefined there).
 */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const { counts } = confusionOf(pairs);
  let observed = 0;
  let chance = 0;
  for (let i = 0; i < counts.length; i++) {
    observed += counts[i]![i]!;
    const row = counts[i]!.reduce((s, c) => s + c, 0);
    const col = counts.reduce((s, r) => s + r[i]!, 0);
    chance += (row / n) * (col / n);
  }
  const po = observed / n;
  if (chance >= 1) return null;
  return (po - chance) / (1 - chance);
}

/**
 * Krippendorff's α for nominal data, 1 − Dₒ/Dₑ over the coincidence matrix: each unit (an
 * item, a call) contributes its answers' ordered pairs weighted 1/(mᵤ − 1); units with fewer
 * than two answers are left out. Null when fewer than two pairable answers remain or every
 * answer is the same label (expected disagreement 0).
 */
export function krippendorffAlpha(units: readonly (readonly string[])[]): number | null {
  const coincidence = new Map<string, Map<string, number>>();
  const add = (c: string, k: string, w: number) => {
    const row = coincidence.get(c) ?? new Map<string, number>();
    row.set(k, (row.get(k) ?? 0) + w);
    coincidence.set(c, row);
  };
  for (const values of units) {
    const m = values.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(values[i]!, values[j]!, 1 / (m - 1));
  }
  const totals = new Map([...coincidence].map(([c, row]) => [c, [...row.values()].reduce((s, w) => s + w, 0)]));
  const n = [...totals.values()].reduce((s, t) => s + t, 0);
  if (n < 2) return null;
  let observed = 0;
  for (const [c, row] of coincidence) for (const [k, w] of row) if (c !== k) observed += w;
  let expected = 0;
  for (const [c, nc] of totals) for (const [k, nk] of totals) if (c !== k) expected += nc * nk;
  expected /= n - 1;
  if (expected === 0) return null;
  return 1 - observed / expected;
}
