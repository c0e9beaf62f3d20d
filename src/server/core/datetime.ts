/**
 * Datetimes: the store keeps microseconds since the epoch (integers), the wire carries
 * ISO 8601 in UTC the way pydantic v2 prints it: `Z`, and a 6-digit fraction only when
 * the microseconds are not zero (`2024-01-02T03:04:05.123000Z`, `2024-01-02T03:04:05Z`).
 */

export { parseIsoToMicros } from '../../contract/datetime.js';

const MINUTE_MS = 60_000;
/** The last minute formatted (`YYYY-MM-DDTHH:MM:`): see formatMicros. */
let cachedMinute = NaN;
let cachedMinuteText = '';

/**
 * Formats epoch microseconds the pydantic way. Every call read is two of these, and
 * `Date#toISOString` was 5-8% of a calls page's or an eval_results query's CPU (cpu-prof, issue
 * 18), so the date and time down to the minute are kept from the previous call: a page's
 * timestamps mostly share their minute.
 */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const minute = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  if (minute !== cachedMinute) {
    cachedMinute = minute;
    cachedMinuteText = new Date(minute).toISOString().slice(0, 17);
  }
  const seconds = Math.floor((ms - minute) / 1000);
  const frac = micros - (minute + seconds * 1000) * 1000;
  const base = `${cachedMinuteText}${seconds < 10 ? '0' : ''}${seconds}`;
  return frac === 0 ? `${base}Z` : `${base}.${String(frac).padStart(6, '0')}Z`;
}

/** `formatMicros` that passes null through. */
export const formatMicrosOrNull = (micros: number | null | undefined): string | null =>
  micros === null || micros === undefined ? null : formatMicros(micros);

/** The current time in epoch microseconds. */
export const nowMicros = (): number => Date.now() * 1000;
