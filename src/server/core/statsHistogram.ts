/**
 * A mergeable histogram of integer values (latencies in ms) for percentiles over pre-aggregated
 * 5-minute cells. Values with |v| ≤ 50 get a bin of their own, so they are exact; larger ones
 * fall in logarithmic bins (ratio γ = 1.01/0.99) whose representative is within 1 % of every
 * value in the bin. Percentiles interpolate linearly between the representatives of the two
 * order statistics, as numpy's default does between values, so the result is within 1 % of
 * the exact percentile (a convex combination of values each within 1 % is itself within 1 %).
 *
 * Why 50: a log bin is 1 ms wide there, so below it an exact bin is no finer than the log bin it
 * replaces, and above it exact bins only multiply the bins. Exact up to 1,024 (until migration
 * 18), a cell of LLM calls 200 ms to 1 s long held ~200 bins against ~85 now, and a week of
 * hourly cells was 1.1 MB to read and merge per `/calls/stats` request.
 *
 * Bins are keyed by a signed integer (negative values mirror positive ones: clock skew can
 * make a latency negative). Encoded as little-endian int32 pairs [key, count], sorted by key.
 */
const EXACT_LIMIT = 50;
const ALPHA = 0.01;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
const LOG_GAMMA = Math.log(GAMMA);
/** First logarithmic key; log bins continue right after the exact ones. */
const LOG_BASE = Math.ceil(Math.log(EXACT_LIMIT) / LOG_GAMMA);

/**
 * The bin key's constants, for backends that bin in SQL (clickhouse/stats.ts): key = m for
 * m = round(|v|) ≤ exactLimit, else exactLimit + 1 + ceil(ln m / logGamma) − logBase; negative
 * values take the negated key.
 */
export const HISTOGRAM_KEY = { exactLimit: EXACT_LIMIT, logGamma: LOG_GAMMA, logBase: LOG_BASE } as const;

/** Documented bound on the relative error of histogram percentiles. */
export const HISTOGRAM_RELATIVE_ERROR = ALPHA;

export type Histogram = Map<number, number>;

function keyOfMagnitude(m: number): number {
  return m <= EXACT_LIMIT ? m : EXACT_LIMIT + 1 + Math.ceil(Math.log(m) / LOG_GAMMA) - LOG_BASE;
}

/** The bin key of a value. */
function binKey(value: number): number {
  const m = Math.round(Math.abs(value));
  return value < 0 ? -keyOfMagnitude(m) : keyOfMagnitude(m);
}

/** The value a bin stands for: exact for small bins, the error-balancing point of a log bin. */
function binValue(key: number): number {
  const k = Math.abs(key);
  const m = k <= EXACT_LIMIT ? k : (2 * GAMMA ** (k - EXACT_LIMIT - 1 + LOG_BASE)) / (GAMMA + 1);
  return key < 0 ? -m : m;
}

/** Adds `count` (negative to remove) occurrences of `value`, dropping bins that reach zero. */
export function addToHistogram(h: Histogram, value: number, count = 1): void {
  addToBin(h, binKey(value), count);
}

function addToBin(h: Histogram, key: number, count: number): void {
  const n = (h.get(key) ?? 0) + count;
  if (n === 0) h.delete(key);
  else h.set(key, n);
}

/** Adds every bin of `from` into `into`. */
export function mergeHistogram(into: Histogram, from: Histogram): void {
  for (const [key, count] of from) addToBin(into, key, count);
}

/**
 * An encoded histogram with `delta` added: one linear merge of the stored (sorted) bins with the
 * delta's, so a cell of a thousand bins is updated without building a map of it.
 */
export function addToEncoded(buf: Uint8Array | null, delta: Histogram): Buffer {
  const stored = buf ? new DataView(buf.buffer, buf.byteOffset, buf.byteLength) : null;
  const storedBins = buf ? buf.byteLength / 8 : 0;
  const keys = [...delta.keys()].sort((a, b) => a - b);
  const out = Buffer.alloc((storedBins + keys.length) * 8);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < storedBins || j < keys.length) {
    const sk = i < storedBins ? stored!.getInt32(i * 8, true) : Infinity;
    const dk = j < keys.length ? keys[j]! : Infinity;
    const key = Math.min(sk, dk);
    let count = 0;
    if (sk === key) count += stored!.getInt32(i++ * 8 + 4, true);
    if (dk === key) count += delta.get(keys[j++]!)!;
    if (count === 0) continue;
    out.writeInt32LE(key, o * 8);
    out.writeInt32LE(count, o * 8 + 4);
    o++;
  }
  return out.subarray(0, o * 8);
}

/** Adds the bins of an encoded histogram straight into `into` (no intermediate map). */
export function mergeEncodedHistogram(into: Histogram, buf: Uint8Array): void {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i + 8 <= buf.byteLength; i += 8) addToBin(into, view.getInt32(i, true), view.getInt32(i + 4, true));
}

/** The q-quantiles (each 0..1) by linear interpolation between order statistics; null when empty. */
export function histogramPercentiles(h: Histogram, qs: number[]): (number | null)[] {
  const sum = new HistogramSum();
  sum.addBins(h);
  return sum.percentiles(qs);
}

/**
 * Keys HistogramSum counts in its dense array: |key| up to this is every magnitude below ~1e36
 * (beyond, keys go to a map), so in practice every latency.
 */
const DENSE_KEYS = 4096;
/** The dense counts, shared: zero between uses (percentiles clears what it touched). */
let denseCounts: Float64Array | null = null;

/**
 * A sum of histograms for percentiles at read time (a `/calls/stats` bucket: its rollup cells,
 * plus single values from the exact scan of the window's edges). Encoded cells are kept as they
 * are until the percentiles are asked for, then every bin is counted into one dense array
 * indexed by key and walked in key order: no map of bins and no sort of keys per bucket. (Merging
 * a week of hourly cells into a map per bucket and sorting its keys took ~20 ms of a 36 ms
 * request at 150k calls, measured with --cpu-prof in bench:load.)
 */
export class HistogramSum {
  readonly #encoded: Uint8Array[] = [];
  readonly #bins: Histogram = new Map();

  /** `count` occurrences of `value`. */
  add(value: number, count = 1): void {
    addToHistogram(this.#bins, value, count);
  }

  /** Every bin of a decoded histogram. */
  addBins(h: Histogram): void {
    mergeHistogram(this.#bins, h);
  }

  /** Every bin of an encoded histogram (held, not copied: the caller must not change it). */
  addEncoded(buf: Uint8Array): void {
    this.#encoded.push(buf);
  }

  /** The q-quantiles (each 0..1) by linear interpolation between order statistics; null when empty. */
  percentiles(qs: number[]): (number | null)[] {
    const counts = (denseCounts ??= new Float64Array(2 * DENSE_KEYS + 1));
    const far: Histogram = new Map();
    let lo = counts.length;
    let hi = -1;
    let n = 0;
    const put = (key: number, count: number) => {
      n += count;
      const at = key + DENSE_KEYS;
      if (at < 0 || at >= counts.length) {
        addToBin(far, key, count);
        return;
      }
      counts[at]! += count;
      if (at < lo) lo = at;
      if (at > hi) hi = at;
    };
    try {
      for (const buf of this.#encoded) {
        const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
        for (let i = 0; i + 8 <= buf.byteLength; i += 8) put(view.getInt32(i, true), view.getInt32(i + 4, true));
      }
      for (const [key, count] of this.#bins) put(key, count);
      if (n <= 0) return qs.map(() => null);
      // The value at every order statistic the quantiles need, in one walk over the bins in key order.
      const ranks = [...new Set(qs.flatMap((q) => [Math.floor((n - 1) * q), Math.ceil((n - 1) * q)]))].sort((a, b) => a - b);
      const at = new Map<number, number>();
      let seen = 0;
      let r = 0;
      const visit = (key: number, count: number) => {
        seen += count;
        for (; r < ranks.length && ranks[r]! < seen; r++) at.set(ranks[r]!, binValue(key));
      };
      const farKeys = [...far.keys()].sort((a, b) => a - b);
      for (const key of farKeys) if (key < 0) visit(key, far.get(key)!);
      for (let i = lo; i <= hi && r < ranks.length; i++) if (counts[i] !== 0) visit(i - DENSE_KEYS, counts[i]!);
      for (const key of farKeys) if (key > 0) visit(key, far.get(key)!);
      return qs.map((q) => {
        const pos = (n - 1) * q;
        const lower = at.get(Math.floor(pos))!;
        return lower + (at.get(Math.ceil(pos))! - lower) * (pos - Math.floor(pos));
      });
    } finally {
      if (hi >= lo) counts.fill(0, lo, hi + 1);
    }
  }
}
