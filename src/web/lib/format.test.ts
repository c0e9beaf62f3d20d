import { describe, expect, it } from 'vitest';
import { formatCompact, formatDateTime, formatInteger } from './format.js';

// The hand-written formatters must read exactly as en-US Intl would (format.ts says why they exist).
const intlInteger = new Intl.NumberFormat('en-US');
const intlCompact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const intlDateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Deterministic spread of values: every magnitude, with the edges of each unit. */
function numbers(): number[] {
  const out = [
    0,
    1,
    -1,
    9_999,
    10_000,
    99_949,
    99_950,
    999_949,
    999_950,
    999_999,
    1_000_000,
    12_350,
    12_345,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
  ];
  let x = 7;
  for (let i = 0; i < 20_000; i++) {
    x = (x * 48_271) % 2_147_483_647;
    const magnitude = 10 ** (i % 16);
    const n = Math.floor((x / 2_147_483_647) * magnitude);
    out.push(n, n === 0 ? 0 : -n);
  }
  for (let e = 3; e <= 15; e++) for (const d of [-51, -50, -49, -1, 0, 1, 49, 50, 51]) out.push(10 ** e + d * 10 ** (e - 3), 10 ** e - d);
  return out;
}

describe('formatInteger and formatCompact', () => {
  it('read as en-US Intl for integers of every size', () => {
    for (const n of numbers()) {
      expect(formatInteger(n), String(n)).toBe(intlInteger.format(n));
      expect(formatCompact(n), String(n)).toBe(n < 10_000 ? intlInteger.format(n) : intlCompact.format(n));
    }
  });

  it('leave fractions and non-finite numbers to Intl', () => {
    for (const n of [1.5, 1234.5678, -0.25, Number.NaN, Infinity, 1e300]) expect(formatInteger(n)).toBe(intlInteger.format(n));
  });
});

describe('formatDateTime', () => {
  it('reads as en-US Intl (24-hour clock, midnight as 00) in the local time zone', () => {
    let t = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 5_000; i++) {
      t += 3_600_000 * 7 + 61_001 * (i % 13);
      const iso = new Date(t).toISOString();
      expect(formatDateTime(iso), iso).toBe(intlDateTime.format(new Date(t)));
    }
  });

  it('gives back what is not a date', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
