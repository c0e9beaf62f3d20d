/**
 * The call fields a query or sort may name, as SQLite SQL.
 *
 * Contract: `resolveCallField(path)` turns a `$getField` / `sort_by` path into either a fixed
 * column expression from the whitelist below or a JSON path inside one of the four JSON
 * columns. The SQL text only ever holds whitelisted column names and fixed expressions; the
 * JSON path itself travels as a bound `?` parameter. Unknown fields are 422, as the newest
 * reference's error registry answers its InvalidFieldError (older servers said 403). `feedback.[<type>].payload.<path>` fields read the feedback
 * table and resolve in callsFeedback.ts.
 *
 * JSON values are read through one of four fixed views (see `jsonText` and friends), so the
 * caller picks how a stored value compares: as text, number, boolean or JSON document.
 */
import { InvalidFieldError } from '../../errors.js';
import { isFeedbackPath, resolveFeedbackField, type FeedbackField } from './callsFeedback.js';
import { LATENCY_MS_SQL, STATUS_SQL, TRACE_NAME_SQL, type SqlFragment } from './callsQuery.js';
import { expandedField } from './callsExpand.js';
import { callCostSql, callInputTokensSql, callOutputTokensSql, callTokensSql } from './usageSql.js';

/** Type of a top-level value: datetimes are epoch-microsecond integers. */
export type ScalarType = 'text' | 'number' | 'datetime';

export interface ColumnField {
  kind: 'column';
  sql: string;
  type: ScalarType;
  /** Whether visible calls can hold NULL here (sorting puts NULLs last). */
  nullable: boolean;
}

export interface JsonField {
  kind: 'json';
  /** `fb.payload` is a feedback row's payload, inside a feedback subquery (callsFeedback.ts). */
  column: 'inputs' | 'output' | 'attributes' | 'summary' | 'fb.payload';
  /** SQLite JSON path, e.g. `$."messages"[0]."content"`; always bound, never inlined. */
  path: string;
  /**
   * Read this JSON instead of `column`: the value a ref points to, for paths through
   * `expand_columns` (callsExpand.ts). `column` then only names where the ref itself lives.
   */
  source?: SqlFragment;
}

export type CallField = ColumnField | JsonField | FeedbackField;

const JSON_COLUMNS = new Set<string>(['inputs', 'output', 'attributes', 'summary']);

/** Top-level CallSchema columns: [type, nullable]. Every visible call has a start, hence op_name etc. */
const COLUMNS: Record<string, [ScalarType, boolean]> = {
  id: ['text', false],
  project_id: ['text', false],
  op_name: ['text', false],
  display_name: ['text', true],
  trace_id: ['text', false],
  parent_id: ['text', true],
  thread_id: ['text', true],
  turn_id: ['text', true],
  started_at: ['datetime', false],
  ended_at: ['datetime', true],
  deleted_at: ['datetime', true],
  exception: ['text', true],
  wb_user_id: ['text', true],
  wb_run_id: ['text', true],
  wb_run_step: ['number', true],
  wb_run_step_end: ['number', true],
};

/** Resolves a dotted field path, or throws 422 (unknown field). */
export function resolveCallField(path: string): CallField {
  if (isFeedbackPath(path)) return resolveFeedbackField(path);
  const computed = computedField(path);
  if (computed) return computed;
  const column = COLUMNS[path];
  if (column) {
    // Reads return an empty display name as null, so queries see it that way too.
    const sql = path === 'display_name' ? "nullif(display_name, '')" : path;
    return { kind: 'column', sql, type: column[0], nullable: column[1] };
  }
  const [head, ...rest] = splitFieldPath(path);
  const expanded = JSON_COLUMNS.has(head!) ? expandedField(path, resolveCallField) : null;
  if (expanded) return expanded;
  if (JSON_COLUMNS.has(head!) && rest.every((p) => p !== '')) {
    return { kind: 'json', column: head as JsonField['column'], path: jsonPath(rest) };
  }
  // Also covers storage_size_bytes / total_storage_size_bytes, which the reference forbids.
  throw new InvalidFieldError(path, unknownFieldMessage(path));
}

/** Why a path is not a call field, and what is. */
function unknownFieldMessage(path: string): string {
  const known = [...Object.keys(COLUMNS), ...[...JSON_COLUMNS].map((c) => `${c}.<path>`), 'feedback.[<type>].payload.<path>'];
  return `Unknown call field "${path}": use one of ${known.join(', ')}`;
}

/** `summary.weave.*` values computed from the row, as the reference filters and sorts them. */
function computedField(path: string): ColumnField | null {
  switch (path) {
    case 'summary.weave.status':
      return { kind: 'column', sql: STATUS_SQL, type: 'text', nullable: false };
    case 'summary.weave.latency_ms':
      return { kind: 'column', sql: LATENCY_MS_SQL, type: 'number', nullable: true };
    case 'summary.weave.trace_name':
      return { kind: 'column', sql: TRACE_NAME_SQL, type: 'text', nullable: true };
    // Weft extensions (the reference has none): the token totals every call read publishes in
    // summary.weave (core/usage.ts's rule, printed as SQL), and what that usage cost at the
    // prices in force when the call started (NULL when nothing is priced).
    case 'summary.weave.total_tokens':
      return { kind: 'column', sql: callTokensSql('calls'), type: 'number', nullable: true };
    case 'summary.weave.input_tokens':
      return { kind: 'column', sql: callInputTokensSql('calls'), type: 'number', nullable: true };
    case 'summary.weave.output_tokens':
      return { kind: 'column', sql: callOutputTokensSql('calls'), type: 'number', nullable: true };
    case 'summary.weave.total_cost':
      return { kind: 'column', sql: callCostSql('calls'), type: 'number', nullable: true };
    default:
      return null;
  }
}

/** Splits on dots, except backslash-escaped ones (`a\.b` is one key), as the reference does. */
export function splitFieldPath(path: string): string[] {
  return path.split(/(?<!\\)\./).map((part) => part.replace(/\\\./g, '.'));
}

/**
 * Digit-only parts are list indexes (the reference's rule). Keys are always quoted; inside a
 * quoted label SQLite decodes JSON escapes but stops at the first `"`, so `"` is written
 * `\u0022` and `\` is doubled.
 */
export function jsonPath(parts: string[]): string {
  const steps = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `."${p.replace(/\\/g, '\\\\').replace(/"/g, '\\u0022')}"`));
  return `$${steps.join('')}`;
}

// ---------------------------------------------------------------------------------------
// SQL fragments: text from fixed pieces, values only as `?` parameters.
// ---------------------------------------------------------------------------------------

/** Joins fixed SQL text with fragments, keeping parameters in text order. */
export function sql(strings: TemplateStringsArray, ...parts: SqlFragment[]): SqlFragment {
  let text = strings[0]!;
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    text += part.sql + strings[i + 1]!;
    params.push(...part.params);
  });
  return { sql: text, params };
}

/** Fixed SQL text. Only for whitelisted names and constants, never for request values. */
export const raw = (text: string): SqlFragment => ({ sql: text, params: [] });

/**
 * One bound value. SQLite has no boolean type (true/false bind as 1/0); whole numbers bind as
 * INTEGER so that they print without `.0`; objects and lists bind as JSON text.
 */
export function param(value: unknown): SqlFragment {
  let bound = value;
  if (typeof value === 'boolean') bound = value ? 1n : 0n;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) bound = BigInt(value);
  else if (value !== null && typeof value === 'object') bound = JSON.stringify(value);
  return { sql: '?', params: [bound] };
}

export function joinSql(parts: SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

// ---------------------------------------------------------------------------------------
// Views of a JSON value.
// ---------------------------------------------------------------------------------------

/** The JSON a field reads: its column, or the referenced value for a path through a ref. */
export const jsonSource = (f: JsonField): SqlFragment => f.source ?? raw(f.column);
const typeAt = (f: JsonField) => sql`json_type(${jsonSource(f)}, ${param(f.path)})`;
const valueAt = (f: JsonField) => sql`json_extract(${jsonSource(f)}, ${param(f.path)})`;

/** True when the path holds a value other than JSON null. */
export const jsonExists = (f: JsonField): SqlFragment => sql`(coalesce(${typeAt(f)}, 'null') <> 'null')`;

/** Missing or JSON null. */
export const jsonIsNull = (f: JsonField): SqlFragment => sql`(coalesce(${typeAt(f)}, 'null') = 'null')`;

/**
 * As text, the way the reference's JSON_VALUE reads it: booleans are 'true'/'false', numbers
 * their digits, objects and lists their JSON.
 */
export const jsonText = (f: JsonField): SqlFragment =>
  sql`(CASE ${typeAt(f)} WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
    ELSE CAST(${valueAt(f)} AS TEXT) END)`;

/** As a number: JSON numbers, and strings that hold a JSON number ("42"); anything else is NULL. */
export const jsonNumber = (f: JsonField): SqlFragment =>
  sql`(CASE ${typeAt(f)} WHEN 'integer' THEN ${valueAt(f)} WHEN 'real' THEN ${valueAt(f)}
    WHEN 'text' THEN ${numberFromText(valueAt(f))} END)`;

/** JSON true/false as 1/0; anything else is NULL. */
export const jsonBool = (f: JsonField): SqlFragment => sql`(CASE ${typeAt(f)} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;

/** As minified JSON text, to compare with an object or list literal. */
export const jsonDoc = (f: JsonField): SqlFragment => sql`(${jsonSource(f)} -> ${param(f.path)})`;

/** A text that is exactly a JSON number, as that number; otherwise NULL (never 0, unlike CAST). */
export const numberFromText = (text: SqlFragment): SqlFragment =>
  sql`(CASE WHEN json_valid(${text}) THEN CASE json_type(${text})
    WHEN 'integer' THEN json_extract(${text}, '$') WHEN 'real' THEN json_extract(${text}, '$') END END)`;
