import { describe, expect, it } from 'vitest';
import { bucketIndex, bucketStarts, chooseGranularity } from './statsTime.js';

const us = (iso: string) => Date.parse(iso) * 1000;
const iso = (starts: number[]) => starts.map((t) => new Date(t / 1000).toISOString().replace('.000Z', 'Z'));
const buckets = (start: string, end: string, granularity: number, timeZone: string) =>
  iso(bucketStarts({ start: us(start), end: us(end), granularity, timeZone }));

describe('chooseGranularity', () => {
  it('picks the width from the span as the reference does', () => {
    expect(chooseGranularity(3_600, null)).toBe(300);
    expect(chooseGranularity(7_200, null)).toBe(300);
    expect(chooseGranularity(7_201, null)).toBe(3_600);
    expect(chooseGranularity(43_200, null)).toBe(3_600);
    expect(chooseGranularity(3 * 86_400, null)).toBe(21_600);
    expect(chooseGranularity(14 * 86_400, null)).toBe(43_200);
    expect(chooseGranularity(30 * 86_400, null)).toBe(86_400);
  });

  it('keeps a requested width unless it makes more than 10,000 buckets', () => {
    expect(chooseGranularity(7_200, 1)).toBe(1);
    expect(chooseGranularity(30 * 86_400, 3_600)).toBe(3_600);
    // 2,592,000 s / 60 s = 43,200 buckets → int(2,592,000 / 10,000) + 1 = 260 s.
    expect(chooseGranularity(30 * 86_400, 60)).toBe(260);
    expect(chooseGranularity(10_000, 1)).toBe(1);
    expect(chooseGranularity(10_001, 1)).toBe(2);
  });
});

describe('bucketStarts', () => {
  it('starts at the boundary at or before start and stops before end (UTC)', () => {
    expect(buckets('2024-01-01T10:07:00Z', '2024-01-01T12:00:00Z', 3_600, 'UTC')).toEqual(['2024-01-01T10:00:00Z', '2024-01-01T11:00:00Z']);
    expect(buckets('2024-01-01T10:00:00Z', '2024-01-01T10:00:00Z', 300, 'UTC')).toEqual([]);
    expect(buckets('2024-01-01T10:00:00Z', '2024-01-01T10:00:01Z', 300, 'UTC')).toEqual(['2024-01-01T10:00:00Z']);
  });

  it('gives 23- and 25-hour days across DST in Europe/Berlin', () => {
    expect(buckets('2024-03-30T00:00:00+01:00', '2024-04-01T12:00:00Z', 86_400, 'Europe/Berlin')).toEqual([
      '2024-03-29T23:00:00Z', // 30 March, local midnight CET
      '2024-03-30T23:00:00Z', // 31 March: 23 hours long
      '2024-03-31T22:00:00Z', // 1 April, local midnight CEST
    ]);
    expect(buckets('2024-10-26T12:00:00Z', '2024-10-28T12:00:00Z', 86_400, 'Europe/Berlin')).toEqual([
      '2024-10-25T22:00:00Z',
      '2024-10-26T22:00:00Z', // 27 October: 25 hours long
      '2024-10-27T23:00:00Z',
    ]);
  });

  it('keeps hourly buckets one hour long when the clock falls back or springs forward', () => {
    // 02:00 local occurs twice on 27 October 2024 (CEST, then CET): two buckets.
    expect(buckets('2024-10-27T00:00:00Z', '2024-10-27T03:00:00Z', 3_600, 'Europe/Berlin')).toEqual([
      '2024-10-27T00:00:00Z',
      '2024-10-27T01:00:00Z',
      '2024-10-27T02:00:00Z',
    ]);
    // 02:00 local does not exist on 31 March 2024: 01:00 CET is followed by 03:00 CEST.
    expect(buckets('2024-03-31T00:00:00Z', '2024-03-31T03:00:00Z', 3_600, 'Europe/Berlin')).toEqual([
      '2024-03-31T00:00:00Z',
      '2024-03-31T01:00:00Z',
      '2024-03-31T02:00:00Z',
    ]);
  });

  it('aligns 6-hour buckets to local 00/06/12/18 on a DST day', () => {
    expect(buckets('2024-03-31T00:00:00+01:00', '2024-04-01T00:00:00+02:00', 21_600, 'Europe/Berlin')).toEqual([
      '2024-03-30T23:00:00Z',
      '2024-03-31T04:00:00Z',
      '2024-03-31T10:00:00Z',
      '2024-03-31T16:00:00Z',
    ]);
  });

  it('aligns hours to local time in a +05:30 zone (Asia/Kolkata)', () => {
    expect(buckets('2024-01-01T00:00:00Z', '2024-01-01T02:00:00Z', 3_600, 'Asia/Kolkata')).toEqual([
      '2023-12-31T23:30:00Z',
      '2024-01-01T00:30:00Z',
      '2024-01-01T01:30:00Z',
    ]);
  });

  it('starts the day at the jump when local midnight does not exist (America/Santiago)', () => {
    // On 8 September 2024 Chilean clocks jump from 24:00 to 01:00.
    expect(buckets('2024-09-07T12:00:00Z', '2024-09-09T12:00:00Z', 86_400, 'America/Santiago')).toEqual([
      '2024-09-07T04:00:00Z',
      '2024-09-08T04:00:00Z',
      '2024-09-09T03:00:00Z',
    ]);
  });
});

describe('bucketIndex', () => {
  it('finds the last start at or before a time', () => {
    const starts = [10, 20, 30];
    expect([10, 19, 20, 29, 30, 99].map((t) => bucketIndex(starts, t))).toEqual([0, 0, 1, 1, 2, 2]);
  });
});
