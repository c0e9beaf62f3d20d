/**
 * The one CSV writer every export uses: RFC 4180 records, and no cell a spreadsheet would run as
 * a formula (OWASP's rule: a string starting with `=`, `+`, `-`, `@`, tab or CR gets a `'`).
 * Finite numbers stay numbers; why, in docs/security/inputs.md.
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
