/**
 * ISO 8601 parsing shared by the contract (validation) and the server (storage): epoch
 * microseconds, so the sub-millisecond precision the Python SDK sends survives. Impossible
 * dates (month 13, 31 February) are rejected, not rolled over.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|([+-])(\d{2}):?(\d{2})?)?)?$/;

/** Parses an ISO 8601 datetime (no offset means UTC) into epoch microseconds, or null. */
export function parseIsoToMicros(text: string): number | null {
  return parseCanonical(text) ?? parseAnyIso(text);
}

/** The value of the `n` ASCII digits at `at`, or -1 if one is not a digit. */
function digitsAt(text: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * The form every SDK sends (`2024-01-02T03:04:05Z`, `2024-01-02T03:04:05.123456Z`), read digit by
 * digit: ingest parses two datetimes per call, and the regex and Date round trip of
 * `parseAnyIso` cost ~0.5 µs each. Answers null for anything it does not accept as surely valid
 * (another form, or a field out of range), which `parseAnyIso` then decides, so the two never
 * disagree. Years below 100 are left to it too (Date.UTC reads them as 19xx, which it rejects).
 */
function parseCanonical(text: string): number | null {
  const n = text.length;
  if (n < 20 || text.charCodeAt(n - 1) !== 90 /* Z */) return null;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return null;
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  const h = digitsAt(text, 11, 2);
  const mi = digitsAt(text, 14, 2);
  const s = digitsAt(text, 17, 2);
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return null;
  if (d > (mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1]!)) return null;
  let micros = 0;
  if (n > 20) {
    // `.` and at least one digit; digits past the sixth are dropped, as in parseAnyIso.
    const fracDigits = n - 21;
    if (text[19] !== '.' || fracDigits < 1 || digitsAt(text, 20, fracDigits) < 0) return null;
    micros = digitsAt(text, 20, Math.min(fracDigits, 6)) * 10 ** Math.max(0, 6 - fracDigits);
  }
  return Date.UTC(y, mo - 1, d, h, mi, s) * 1000 + micros;
}

/** Any ISO 8601 datetime the contract takes: a space for `T`, no seconds, an offset, surrounding blanks (exported for server/core/datetime.test.ts). */
export function parseAnyIso(text: string): number | null {
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
