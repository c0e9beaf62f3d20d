import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.js';
import { createRng } from '../demo/seededRandom.js';
import {
  addToEncoded,
  addToHistogram,
  HISTOGRAM_RELATIVE_ERROR,
  histogramPercentiles,
  HistogramSum,
  mergeEncodedHistogram,
  type Histogram,
} from './statsHistogram.js';

const pct = (h: Histogram, q: number) => histogramPercentiles(h, [q])[0];
const histOf = (values: number[]): Histogram => {
  const h: Histogram = new Map();
  for (const v of values) addToHistogram(h, v);
  return h;
};

describe('latency histogram', () => {
  it('is exact for values up to 50', () => {
    const values = [0, 1, 1, 2, 7, 25, 49, 50, 50];
    const h = histOf(values);
    const qs = [0, 0.1, 0.5, 0.95, 0.99, 1];
    expect(histogramPercentiles(h, qs)).toEqual(qs.map((q) => percentile(values, q)));
  });

  it('stays within 1 % of the exact percentile for large values', () => {
    const rng = createRng(7);
    const values = Array.from({ length: 5_000 }, () => Math.round(Math.exp(rng.next() * 14)) - 5);
    const sorted = [...values].sort((a, b) => a - b);
    const h = histOf(values);
    for (const q of [0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.995, 1]) {
      const exact = percentile(sorted, q)!;
      const approx = pct(h, q)!;
      expect(Math.abs(approx - exact)).toBeLessThanOrEqual(HISTOGRAM_RELATIVE_ERROR * Math.abs(exact) + 1e-9);
    }
  });

  it('mirrors negative values and removes what was added', () => {
    const h = histOf([-5000, -3, 10, 2000]);
    expect(pct(h, 0)!).toBeCloseTo(-5000, -2);
    addToHistogram(h, -5000, -1);
    addToHistogram(h, 2000, -1);
    expect([...h.values()]).toEqual([1, 1]);
    expect(pct(h, 0)).toBe(-3);
    expect(pct(h, 1)).toBe(10);
  });

  it('adds to and merges encoded cells, dropping bins that reach zero', () => {
    const a = histOf([1, 5, 5, 99_999]);
    const decoded = (buf: Uint8Array) => {
      const h: Histogram = new Map();
      mergeEncodedHistogram(h, buf);
      return h;
    };
    const encoded = addToEncoded(null, a);
    expect(decoded(encoded)).toEqual(a);
    const changed = addToEncoded(
      encoded,
      new Map([
        [5, -2],
        [7, 1],
        [-3, 4],
      ]),
    );
    expect([...decoded(changed)].sort((x, y) => x[0] - y[0])).toEqual(
      [
        [-3, 4],
        [1, 1],
        [7, 1],
        [[...a.keys()].at(-1)!, 1],
      ].sort((x, y) => x[0]! - y[0]!),
    );
    const into = histOf([5]);
    mergeEncodedHistogram(into, encoded);
    expect(into.get(5)).toBe(3);
    expect(pct(new Map(), 0.5)).toBeNull();
  });

  it('sums encoded cells, decoded bins and single values into the percentiles of their union', () => {
    const rng = createRng(11);
    const parts = Array.from({ length: 6 }, () => Array.from({ length: 300 }, () => Math.round(Math.exp(rng.next() * 9)) - 20));
    // Magnitudes beyond the dense keys (|key| > 4096) are counted too, in order.
    const singles = [-1e39, 3, 1e38, 2e39];
    const sum = new HistogramSum();
    for (const part of parts.slice(0, 4)) sum.addEncoded(addToEncoded(null, histOf(part)));
    for (const part of parts.slice(4)) sum.addBins(histOf(part));
    for (const v of singles) sum.add(v);
    const all = histOf([...parts.flat(), ...singles]);
    const qs = [0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1];
    expect(sum.percentiles(qs)).toEqual(histogramPercentiles(all, qs));
    expect(Math.abs(sum.percentiles([0])[0]! / -1e39 - 1)).toBeLessThanOrEqual(HISTOGRAM_RELATIVE_ERROR);
    // Each sum starts from nothing: the counts of the one before are not left behind.
    const alone = new HistogramSum();
    alone.add(42);
    expect(alone.percentiles([0, 1])).toEqual([42, 42]);
    expect(new HistogramSum().percentiles([0.5])).toEqual([null]);
  });
});
