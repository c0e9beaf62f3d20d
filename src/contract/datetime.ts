/**
 * ISO 8601 parsing shared by the contract (validation) and the server (storage): epoch
 * microseconds, so the sub-millisecond precision the Python SDK sends survives. Impossible
 * dates (month 13, 31 February) are rejected, not rolled over.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|([+-])(\d{2}):?(\d{2})?)?)?$/;

/** Parses an ISO 8601 datetime (no offset means UTC) into epoch microseconds, or null. */
export function parseIsoToMicros(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const parts = [+y!, +mo! - 1, +d!, +h, +mi, +s] as const;
  const ms = Date.UTC(...parts);
  const back = new Date(ms);
  const exact =
    back.getUTCFullYear() === parts[0] &&
    back.getUTCMonth() === parts[1] &&
    back.getUTCDate() === parts[2] &&
    back.getUTCHours() === parts[3] &&
    back.getUTCMinutes() === parts[4] &&
    back.getUTCSeconds() === parts[5];
  if (!exact || +oh > 23 || +om > 59) return null;
  const micros = Number((frac + '000000').slice(0, 6));
  const offsetMin = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return (ms - offsetMin * 60_000) * 1000 + micros;
}
