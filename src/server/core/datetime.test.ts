import { describe, expect, it } from 'vitest';
import { parseAnyIso, parseIsoToMicros } from '../../contract/datetime.js';
import { formatMicros } from './datetime.js';

/** Strings in and around the canonical form, valid and not, with a fixed seed so a failure repeats. */
function nearCanonical(count: number): string[] {
  let seed = 42;
  // mulberry32: an LCG's low bits repeat with a short period, and `% n` reads exactly those.
  const rand = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
  const pad = (v: number, width: number) => String(v).padStart(width, '0');
  const pick = <T>(xs: T[]) => xs[rand(xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const year = pick([rand(10_000), 1999 + rand(40), 2000, 1900, 2100, rand(100)]);
    const date = `${pad(year, 4)}-${pad(rand(14), 2)}-${pad(rand(33), 2)}`;
    const time = `${pad(rand(26), 2)}:${pad(rand(62), 2)}:${pad(rand(62), 2)}`;
    const frac = pick(['', '', `.${pad(rand(10 ** 6), 6)}`, `.${rand(10)}`, `.${pad(rand(1000), 3)}`, `.${pad(rand(10 ** 9), 9)}`, '.']);
    let text = `${date}T${time}${frac}${pick(['Z', 'Z', 'Z', 'z', '+01:00', ''])}`;
    // Now and then one character replaced by something else.
    if (rand(6) === 0) {
      const at = rand(text.length);
      text = text.slice(0, at) + pick(['x', ' ', '-', ':', '.', '٣', '/', 'T']) + text.slice(at + 1);
    }
    out.push(text);
  }
  return out;
}

describe('parseIsoToMicros', () => {
  it('reads the SDKs’ form', () => {
    expect(parseIsoToMicros('2024-01-02T03:04:05Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5) * 1000);
    expect(parseIsoToMicros('2024-01-02T03:04:05.123456Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 123456);
    expect(parseIsoToMicros('2024-01-02T03:04:05.12Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 120000);
    expect(parseIsoToMicros('2024-01-02T03:04:05.1234567Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 123456);
    expect(parseIsoToMicros('2024-02-29T00:00:00Z')).not.toBeNull();
    expect(parseIsoToMicros('2023-02-29T00:00:00Z')).toBeNull();
    expect(parseIsoToMicros('2024-13-01T00:00:00Z')).toBeNull();
    expect(parseIsoToMicros('2024-01-01T24:00:00Z')).toBeNull();
  });

  it('answers what the general parser answers, for every string near the canonical form', () => {
    const texts = nearCanonical(50_000);
    const disagreements = texts.filter((t) => parseIsoToMicros(t) !== parseAnyIso(t));
    expect(disagreements).toEqual([]);
    // The sample holds both valid and invalid datetimes, so the comparison means something.
    const valid = texts.filter((t) => parseAnyIso(t) !== null).length;
    expect(valid).toBeGreaterThan(texts.length / 10);
    expect(valid).toBeLessThan(texts.length * 0.9);
  });
});

describe('formatMicros', () => {
  it('prints what parseIsoToMicros reads, across minutes, and before 1970', () => {
    const texts = [
      '2024-01-02T03:04:05Z',
      '2024-01-02T03:04:05.000001Z',
      '2024-01-02T03:04:59.999999Z',
      '2024-01-02T03:05:00Z',
      '1970-01-01T00:00:00Z',
      '1969-12-31T23:59:59.999999Z',
      '1957-11-11T20:42:58.631623Z',
      '2200-12-31T23:59:59.999999Z',
    ];
    // In this order and reversed: the formatter keeps the previous minute, which must never leak.
    for (const text of [...texts, ...texts.reverse()]) expect(formatMicros(parseIsoToMicros(text)!)).toBe(text);
    // Calls a second apart share the minute's text and still print their own seconds.
    const start = parseIsoToMicros('2026-11-28T12:00:00Z')!;
    for (let s = 0; s < 120; s++)
      expect(formatMicros(start + s * 1_000_000)).toBe(new Date(Date.UTC(2026, 10, 28, 12, 0, s)).toISOString().replace('.000', ''));
  });
});
