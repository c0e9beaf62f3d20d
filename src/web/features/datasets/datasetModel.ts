/**
 * Dataset rows without React (docs/datasets.md "Dataset page"): the row diff between two
 * versions, CSV and JSON-lines import and export, and a cell's text while it is edited.
 */
import type { DatasetRow } from '../../../client/datasetVersions.js';
import { diffLines } from '../objects/versions/lineDiff.js';

/** A table row as the server answers it. */
export interface StoredRow {
  digest: string;
  val: unknown;
}

/** One line of a row diff: `changed` pairs two rows by position, with the keys whose values differ. */
export type RowDiff =
  | { kind: 'same'; before: StoredRow; after: StoredRow; beforeIndex: number; afterIndex: number }
  | { kind: 'removed'; before: StoredRow; beforeIndex: number }
  | { kind: 'added'; after: StoredRow; afterIndex: number }
  | { kind: 'changed'; before: StoredRow; after: StoredRow; beforeIndex: number; afterIndex: number; keys: string[] };

const asObject = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Keys of two rows whose values differ (compared as JSON). */
export function changedKeys(a: unknown, b: unknown): string[] {
  const x = asObject(a);
  const y = asObject(b);
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
  return keys.filter((k) => !(k in x) || !(k in y) || JSON.stringify(x[k]) !== JSON.stringify(y[k]));
}

/**
 * Anchors of a diff: digests found exactly once on each side, the longest run of them in the
 * same order on both (patience sorting, n log n), as [before, after] positions.
 */
function uniqueAnchors(a: readonly string[], b: readonly string[]): [number, number][] {
  const countA = new Map<string, number>();
  const countB = new Map<string, number>();
  const posB = new Map<string, number>();
  for (const d of a) countA.set(d, (countA.get(d) ?? 0) + 1);
  b.forEach((d, j) => {
    countB.set(d, (countB.get(d) ?? 0) + 1);
    posB.set(d, j);
  });
  const pairs: [number, number][] = [];
  a.forEach((d, i) => {
    if (countA.get(d) === 1 && countB.get(d) === 1) pairs.push([i, posB.get(d)!]);
  });
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  });
  const out: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) out.push(pairs[k]!);
  return out.reverse();
}

/**
 * Rows of `before` → `after`: rows are matched by digest first (rows unique on both sides in
 * the same order anchor the match, the stretches between them are aligned by a longest common
 * run), then the unmatched rows between two matches are paired by position as changed rows;
 * the rest are removed or added. Moved rows read as removed and added.
 */
export function diffRows(before: readonly StoredRow[], after: readonly StoredRow[]): RowDiff[] {
  const a = before.map((r) => r.digest);
  const b = after.map((r) => r.digest);
  const out: RowDiff[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const n = Math.min(removed.length, added.length);
    for (let k = 0; k < n; k++) {
      const [bi, ai] = [removed[k]!, added[k]!];
      out.push({
        kind: 'changed',
        before: before[bi]!,
        after: after[ai]!,
        beforeIndex: bi,
        afterIndex: ai,
        keys: changedKeys(before[bi]!.val, after[ai]!.val),
      });
    }
    for (const bi of removed.slice(n)) out.push({ kind: 'removed', before: before[bi]!, beforeIndex: bi });
    for (const ai of added.slice(n)) out.push({ kind: 'added', after: after[ai]!, afterIndex: ai });
    removed = [];
    added = [];
  };
  const same = (bi: number, ai: number) => {
    flush();
    out.push({ kind: 'same', before: before[bi]!, after: after[ai]!, beforeIndex: bi, afterIndex: ai });
  };
  /** The stretch [i0, i1) × [j0, j1) between two anchors. */
  const gap = (i0: number, i1: number, j0: number, j1: number) => {
    if (i0 === i1 || j0 === j1) {
      for (let i = i0; i < i1; i++) removed.push(i);
      for (let j = j0; j < j1; j++) added.push(j);
      return;
    }
    const lines = diffLines(a.slice(i0, i1).join('\n'), b.slice(j0, j1).join('\n'));
    if (lines === null) {
      // Too long to align: rows pair by position.
      for (let i = i0; i < i1; i++) removed.push(i);
      for (let j = j0; j < j1; j++) added.push(j);
      return;
    }
    for (const line of lines) {
      if (line.kind === 'removed') removed.push(i0 + line.before! - 1);
      else if (line.kind === 'added') added.push(j0 + line.after! - 1);
      else same(i0 + line.before! - 1, j0 + line.after! - 1);
    }
  };
  let i = 0;
  let j = 0;
  for (const [ai, bj] of uniqueAnchors(a, b)) {
    gap(i, ai, j, bj);
    same(ai, bj);
    i = ai + 1;
    j = bj + 1;
  }
  gap(i, a.length, j, b.length);
  flush();
  return out;
}

/** Counts of a diff's kinds. */
export function diffCounts(diff: readonly RowDiff[]) {
  const counts = { same: 0, added: 0, removed: 0, changed: 0 };
  for (const d of diff) counts[d.kind]++;
  return counts;
}

/** Column names of rows in order of first appearance. */
export function columnNames(rows: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(asObject(r))) names.add(k);
  return [...names];
}

/** A value as the text of a cell being edited: strings as they are, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An edited cell's text as a value: JSON when it reads as a number, boolean, null, object, array or quoted string; otherwise the text. */
export function parseCell(text: string): unknown {
  const t = text.trim();
  if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/.test(t) || /^[[{"]/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

/** A problem with an imported file, on a 1-based line. */
export interface ImportError {
  line: number;
  message: string;
}

/** What an import read: rows, or the errors that stop it. */
export interface ParsedImport {
  rows: DatasetRow[];
  errors: ImportError[];
}

/** Rows of a JSON-lines file: one JSON object a line, blank lines skipped. */
export function parseJsonl(text: string): ParsedImport {
  const rows: DatasetRow[] = [];
  const errors: ImportError[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      errors.push({ line: i + 1, message: `not JSON: ${(e as Error).message}` });
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      errors.push({ line: i + 1, message: 'a row must be a JSON object ({"column": value, …})' });
    else rows.push(v as DatasetRow);
  });
  if (rows.length === 0 && errors.length === 0) errors.push({ line: 1, message: 'the file has no rows' });
  return { rows, errors };
}

/** Records of a CSV text (RFC 4180: quoted fields hold commas, quotes doubled, newlines), each with its first line. */
function csvRecords(text: string): { fields: string[]; line: number }[] | ImportError {
  const records: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: start });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === '"')
      return { line, message: 'a quote inside an unquoted field (quote the whole field and double the quote: "a ""b"" c")' };
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
    i++;
  }
  if (quoted) return { line: start, message: 'a quoted field is never closed' };
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** Rows of a CSV file with a header line; every value a string, as in the file. */
export function parseCsv(text: string): ParsedImport {
  const records = csvRecords(text.replace(/^\uFEFF/, ''));
  if (!Array.isArray(records)) return { rows: [], errors: [records] };
  const [head, ...body] = records;
  if (!head) return { rows: [], errors: [{ line: 1, message: 'the file is empty: the first line names the columns' }] };
  const errors: ImportError[] = [];
  const names = head.fields.map((f) => f.trim());
  const seen = new Set<string>();
  names.forEach((n, k) => {
    if (n === '') errors.push({ line: head.line, message: `column ${k + 1} has no name` });
    else if (seen.has(n)) errors.push({ line: head.line, message: `column "${n}" is named twice` });
    seen.add(n);
  });
  const rows: DatasetRow[] = [];
  for (const r of body) {
    if (r.fields.length !== names.length) {
      errors.push({ line: r.line, message: `${r.fields.length} fields where the header has ${names.length}` });
      continue;
    }
    rows.push(Object.fromEntries(names.map((n, k) => [n, r.fields[k]!])));
  }
  if (rows.length === 0 && errors.length === 0) errors.push({ line: 2, message: 'the file has a header but no rows' });
  return { rows, errors };
}

/** A file's rows by its name: `.csv` as CSV, anything else as JSON lines. */
export function parseImport(fileName: string, text: string): ParsedImport {
  return /\.csv$/i.test(fileName) ? parseCsv(text) : parseJsonl(text);
}

/**
 * One CSV field, by the rule of the server's CSV writer (docs/security/inputs.md "CSV exports
 * are inert"): numbers and booleans as themselves, objects as JSON text, and text a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) with a `'` in front.
 */
function csvField(v: unknown): string {
  if (v === undefined || v === null) return '';
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(s)) return `"'${s.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as CSV: a header of every column, text as it is (formulas made inert) and objects as JSON. */
export function toCsv(rows: readonly unknown[]): string {
  const names = columnNames(rows);
  const lines = [names.map(csvField).join(','), ...rows.map((r) => names.map((n) => csvField(asObject(r)[n])).join(','))];
  return lines.join('\r\n') + '\r\n';
}

/** Rows as JSON lines. */
export function toJsonl(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r) + '\n').join('');
}
