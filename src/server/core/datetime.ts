/**
 * Datetimes: the store keeps microseconds since the epoch (integers), the wire carries
 * ISO 8601 in UTC the way pydantic v2 prints it: `Z`, and a 6-digit fraction only when
 * the microseconds are not zero (`2024-01-02T03:04:05.123000Z`, `2024-01-02T03:04:05Z`).
 */

export { parseIsoToMicros } from '../../contract/datetime.js';

/** Formats epoch microseconds the pydantic way. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = micros - ms * 1000 + (ms % 1000) * 1000;
  const base = new Date(ms - (ms % 1000)).toISOString().slice(0, 19);
  return frac === 0 ? `${base}Z` : `${base}.${String(frac).padStart(6, '0')}Z`;
}

/** `formatMicros` that passes null through. */
export const formatMicrosOrNull = (micros: number | null | undefined): string | null =>
  micros === null || micros === undefined ? null : formatMicros(micros);

/** The current time in epoch microseconds. */
export const nowMicros = (): number => Date.now() * 1000;
