/**
 * The one CSV writer every export uses (calls, annotation queues): RFC 4180 records with CRLF
 * line ends, and cells a spreadsheet cannot run. Whoever can write a call or an answer controls
 * the text of a cell, and Excel, LibreOffice and Google Sheets treat a cell starting with `=`,
 * `+`, `-`, `@`, tab or CR as a formula (`=HYPERLINK(...)`, `=cmd|'/C calc'!A0`). Such a string
 * is written with a `'` in front, quoted, as OWASP's CSV-injection rule says; see
 * docs/security/inputs.md.
 *
 * Finite numbers are written as themselves, `-5` included: the writer knows they are numbers,
 * and a number's text (digits, sign, `.`, `e`) cannot be a formula, while a `'` would turn it
 * into text in every spreadsheet. A string that merely looks like a number (`"-5"`) is still
 * neutralised: only its type says it is harmless, and a string has none.
 */

/** First characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that need the field quoted (RFC 4180). */
const NEEDS_QUOTES = /[",\r\n]/;

/** One record: every value through `csvCell`, comma-separated, ending in CRLF. */
export function csvRow(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvCell(values[i]);
  return `${line}\r\n`;
}

/**
 * One field as it goes into the file: null and undefined empty, finite numbers and booleans as
 * themselves, objects and lists as JSON text, anything else as neutralised, quoted text.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  // JSON text of an object or list starts with `{` or `[`; it is quoted like any text.
  return csvText(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** A text field: a `'` in front when a spreadsheet would run it, quoted when it must be. */
export function csvText(text: string): string {
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
