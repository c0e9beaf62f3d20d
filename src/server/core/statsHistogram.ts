/**
 * A mergeable histogram of integer values (latencies in ms) for percentiles over pre-aggregated
 * 5-minute cells. Values with |v| ≤ 1024 get a bin of their own, so they are exact; larger ones
 * fall in logarithmic bins (ratio γ = 1.01/0.99) whose representative is within 1 % of every
 * value in the bin. Percentiles interpolate linearly between the representatives of the two
 * order statistics, as numpy's default does between values, so the result is within 1 % of
 * the exact percentile (a convex combination of values each within 1 % is itself within 1 %).
 *
 * Bins are keyed by a signed integer (negative values mirror positive ones: clock skew can
 * make a latency negative). Encoded as little-endian int32 pairs [key, count], sorted by key.
 */
const EXACT_LIMIT = 1024;
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
  const keys = [...h.keys()].sort((a, b) => a - b);
  let n = 0;
  for (const k of keys) n += h.get(k)!;
  if (n === 0) return qs.map(() => null);
  // The value at every order statistic the quantiles need, in one walk over the bins.
  const ranks = [...new Set(qs.flatMap((q) => [Math.floor((n - 1) * q), Math.ceil((n - 1) * q)]))].sort((a, b) => a - b);
  const at = new Map<number, number>();
  let seen = 0;
  let r = 0;
  for (const k of keys) {
    seen += h.get(k)!;
    for (; r < ranks.length && ranks[r]! < seen; r++) at.set(ranks[r]!, binValue(k));
  }
  return qs.map((q) => {
    const pos = (n - 1) * q;
    const lo = at.get(Math.floor(pos))!;
    return lo + (at.get(Math.ceil(pos))! - lo) * (pos - Math.floor(pos));
  });
}
