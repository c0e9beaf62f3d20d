/**
 * Datetimes: the store keeps microseconds since the epoch (integers), the wire carries
 * ISO 8601 in UTC the way pydantic v2 prints it: `Z`, and a 6-digit fraction only when
 * the microseconds are not zero (`2024-01-02T03:04:05.123000Z`, `2024-01-02T03:04:05Z`).
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|([+-])(\d{2}):?(\d{2})?)?)?$/;

/** Parses any ISO 8601 datetime (no offset means UTC) into epoch microseconds, or null. */
export function parseIsoToMicros(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s);
  if (Number.isNaN(ms)) return null;
  const micros = Number((frac + '000000').slice(0, 6));
  const offsetMin = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return (ms - offsetMin * 60_000) * 1000 + micros;
}

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
