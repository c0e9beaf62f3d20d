/**
 * Time buckets of `/calls/stats`: the granularity the reference picks for a window, and the
 * bucket boundaries aligned to local time in an IANA zone. Times are epoch microseconds.
 *
 * Decisions (the reference, weave's `stats_query_base.py`, decides the first two):
 * - Granularity by span: ≤2 h → 5 min, ≤12 h → 1 h, ≤3 d → 6 h, ≤14 d → 12 h, else 1 day; a
 *   requested one is kept. Either way, when span/granularity exceeds 10,000 buckets it becomes
 *   `int(span / 10000) + 1` seconds.
 * - The first bucket starts at the boundary at or before `start`; buckets are listed while
 *   their start is before `end`.
 * - Boundaries are the instants at which the local wall clock shows a multiple of the
 *   granularity, counted from 1970-01-01 00:00 local time (so 1-day buckets start at local
 *   midnight and 7-day buckets on Thursdays, as epoch alignment gives). This deliberately
 *   differs from the ClickHouse reference, whose `toStartOfInterval(…, INTERVAL n SECOND, tz)`
 *   ignores the zone for whole-minute intervals: the request says the zone aligns the buckets.
 * - DST: a day bucket spans 23 h or 25 h on transition days. When the wall clock jumps over
 *   a boundary (spring forward), the jump itself starts the bucket; when it repeats an hour
 *   (fall back), each occurrence of a boundary starts a bucket, so hourly buckets stay 1 h long.
 * - Offset changes are found by probing the zone once a day and bisecting to the second, so
 *   two transitions within one day (no current zone has them) would be seen as none.
 */
const SECOND = 1_000_000;
const DAY = 86_400 * SECOND;
const MAX_BUCKETS = 10_000;

/** Bucket width in seconds for a window of `spanSeconds`, as the reference chooses it. */
export function chooseGranularity(spanSeconds: number, requested: number | null | undefined): number {
  const auto =
    spanSeconds <= 7_200
      ? 300
      : spanSeconds <= 43_200
        ? 3_600
        : spanSeconds <= 259_200
          ? 21_600
          : spanSeconds <= 1_209_600
            ? 43_200
            : 86_400;
  const g = requested ?? auto;
  return spanSeconds / g > MAX_BUCKETS ? Math.max(g, Math.floor(spanSeconds / MAX_BUCKETS) + 1) : g;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timeZone` from UTC at `micros` (wall − UTC), in whole seconds as microseconds. */
function zoneOffset(timeZone: string, micros: number): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const utcMs = Math.floor(micros / SECOND) * 1000;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(utcMs))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wallMs = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return (wallMs - utcMs) * 1000;
}

/** A stretch of time with one offset: [from, to). */
interface Segment {
  from: number;
  to: number;
  offset: number;
}

const isUtc = (tz: string) => ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Zulu', 'Etc/Zulu'].includes(tz);

/** The offset segments covering [from, to), found by daily probes and bisection. */
function segmentsOf(timeZone: string, from: number, to: number): Segment[] {
  if (isUtc(timeZone)) return [{ from, to, offset: 0 }];
  const segments: Segment[] = [];
  let segStart = from;
  let offset = zoneOffset(timeZone, from);
  for (let t = from; t < to;) {
    const next = Math.min(t + DAY, to);
    const nextOffset = zoneOffset(timeZone, next);
    if (nextOffset !== offset) {
      // Bisect (to the second) for the first instant with the new offset.
      let lo = t;
      let hi = next;
      while (hi - lo > SECOND) {
        const mid = lo + Math.floor((hi - lo) / 2 / SECOND) * SECOND;
        if (zoneOffset(timeZone, mid) === offset) lo = mid;
        else hi = mid;
      }
      segments.push({ from: segStart, to: hi, offset });
      segStart = hi;
      offset = zoneOffset(timeZone, hi);
      t = hi;
      continue;
    }
    t = next;
  }
  segments.push({ from: segStart, to, offset });
  return segments;
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/**
 * Bucket starts for the window [start, end) at `granularity` seconds in `timeZone`: the first
 * is at or before `start`, the rest are before `end`. Bucket i is [b[i], b[i+1]) (the last
 * ends at `end`), clipped to the window.
 */
export function bucketStarts(req: { start: number; end: number; granularity: number; timeZone: string }): number[] {
  if (req.end <= req.start) return [];
  const g = req.granularity * SECOND;
  // Wall clock and UTC differ by at most a day, so one granularity plus two days before
  // `start` always holds the boundary at or before it.
  const segments = segmentsOf(req.timeZone, req.start - g - 2 * DAY, req.end);
  const all: number[] = [];
  segments.forEach((s, i) => {
    // Boundaries inside the segment: u + offset ≡ 0 (mod g).
    for (let k = Math.ceil((s.from + s.offset) / g); k * g - s.offset < s.to; k++) all.push(k * g - s.offset);
    // Spring forward over a boundary: the wall clock skips [from + before, from + offset).
    const before = segments[i - 1]?.offset;
    if (before !== undefined && s.offset > before) {
      const skipped = floorDiv(s.from + s.offset - 1, g) * g >= s.from + before;
      if (skipped) all.push(s.from);
    }
  });
  all.sort((a, b) => a - b);
  let first = 0;
  while (first + 1 < all.length && all[first + 1]! <= req.start) first++;
  const out: number[] = [];
  for (let i = first; i < all.length && all[i]! < req.end; i++) if (all[i] !== out[out.length - 1]) out.push(all[i]!);
  return out;
}

/** Index of the bucket holding `t` (the last start at or before it), by binary search. */
export function bucketIndex(starts: readonly number[], t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
