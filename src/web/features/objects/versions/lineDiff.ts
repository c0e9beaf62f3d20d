/**
 * A line diff of two texts (an op's source before and after): the common head and tail are
 * cut off, the middle is an LCS table, so small edits of long files stay cheap. Unchanged runs
 * far from a change fold into one "N unchanged lines" marker.
 */

/** One line of a unified diff, with its line numbers on each side. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  before: number | null;
  after: number | null;
}

/** A diff line, or a fold standing for `count` unchanged lines. */
export type DiffHunkLine = DiffLine | { kind: 'fold'; count: number };

/** Lines of `a` → `b`; null when the changed middle is too big to compare line by line. */
export function diffLines(a: string, b: string, { maxCells = 4_000_000 } = {}): DiffLine[] | null {
  // A final newline ends the last line; it is not an empty line of its own.
  const x = a.replace(/\n$/, '').split('\n');
  const y = b.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const n = xs.length;
  const m = ys.length;
  if ((n + 1) * (m + 1) > maxCells) return null;

  // lcs[i][j] = length of the LCS of xs[i:] and ys[j:].
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] = xs[i] === ys[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  }

  const out: DiffLine[] = x.slice(0, head).map((text, k) => ({ kind: 'same', text, before: k + 1, after: k + 1 }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && xs[i] === ys[j]) {
      out.push({ kind: 'same', text: xs[i]!, before: head + i + 1, after: head + j + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      // On a tie the removal goes first, as unified diffs read.
      out.push({ kind: 'removed', text: xs[i]!, before: head + i + 1, after: null });
      i++;
    } else {
      out.push({ kind: 'added', text: ys[j]!, before: null, after: head + j + 1 });
      j++;
    }
  }
  for (let k = 0; k < tail; k++)
    out.push({ kind: 'same', text: x[x.length - tail + k]!, before: x.length - tail + k + 1, after: y.length - tail + k + 1 });
  return out;
}

/** Keeps `context` unchanged lines around each change and folds the rest. */
export function foldUnchanged(lines: readonly DiffLine[], context = 3): DiffHunkLine[] {
  const near = new Uint8Array(lines.length);
  lines.forEach((l, k) => {
    if (l.kind === 'same') return;
    for (let d = Math.max(0, k - context); d <= Math.min(lines.length - 1, k + context); d++) near[d] = 1;
  });
  const out: DiffHunkLine[] = [];
  let folded = 0;
  lines.forEach((l, k) => {
    if (near[k]) {
      if (folded) out.push({ kind: 'fold', count: folded });
      folded = 0;
      out.push(l);
    } else folded++;
  });
  if (folded) out.push({ kind: 'fold', count: folded });
  return out;
}
