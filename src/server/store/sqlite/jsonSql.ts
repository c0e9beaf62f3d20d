/**
 * Views of a JSON value in SQLite SQL: how a value at a path of some JSON text reads as text,
 * number, boolean or document (the four views of query/ir.ts `JsonView`), and SQLite's JSON
 * path syntax.
 *
 * Contract: the path is always a bound parameter; `source` is a fragment the caller owns (a
 * column name or a subquery).
 */
import { isListIndex } from '../../core/fieldPath.js';
import { param, sql, type SqlFragment } from './sql.js';

/** A path inside some JSON text. */
export interface JsonAt {
  source: SqlFragment;
  /** SQLite JSON path, e.g. `$."messages"[0]."content"`; always bound, never inlined. */
  path: string;
}

/**
 * List indexes as `[n]`, keys always quoted; inside a quoted label SQLite decodes JSON escapes
 * but stops at the first `"`, so `"` is written `\u0022` and `\` is doubled.
 */
export function jsonPath(parts: string[]): string {
  const steps = parts.map((p) => (isListIndex(p) ? `[${p}]` : `."${p.replace(/\\/g, '\\\\').replace(/"/g, '\\u0022')}"`));
  return `$${steps.join('')}`;
}

const typeAt = (at: JsonAt) => sql`json_type(${at.source}, ${param(at.path)})`;
const valueAt = (at: JsonAt) => sql`json_extract(${at.source}, ${param(at.path)})`;

/** True when the path holds a value other than JSON null. */
export const jsonExists = (at: JsonAt): SqlFragment => sql`(coalesce(${typeAt(at)}, 'null') <> 'null')`;

/** Missing or JSON null. */
export const jsonIsNull = (at: JsonAt): SqlFragment => sql`(coalesce(${typeAt(at)}, 'null') = 'null')`;

/**
 * As text, the way the reference's JSON_VALUE reads it: booleans are 'true'/'false', numbers
 * their digits, objects and lists their JSON, a missing path and JSON null ''.
 */
export const jsonText = (at: JsonAt): SqlFragment =>
  sql`(CASE ${typeAt(at)} WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
    ELSE coalesce(CAST(${valueAt(at)} AS TEXT), '') END)`;

/** As a number: JSON numbers, and strings that hold a JSON number ("42"); anything else is NULL. */
export const jsonNumber = (at: JsonAt): SqlFragment =>
  sql`(CASE ${typeAt(at)} WHEN 'integer' THEN ${valueAt(at)} WHEN 'real' THEN ${valueAt(at)}
    WHEN 'text' THEN ${numberFromText(valueAt(at))} END)`;

/** JSON true/false as 1/0; anything else is NULL. */
export const jsonBool = (at: JsonAt): SqlFragment => sql`(CASE ${typeAt(at)} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;

/** As minified JSON text, to compare with an object or list literal; a missing path and JSON null ''. */
export const jsonDoc = (at: JsonAt): SqlFragment => sql`(CASE WHEN ${jsonExists(at)} THEN ${at.source} -> ${param(at.path)} ELSE '' END)`;

/** The length of the list at the path; NULL for anything else (json_array_length would say 0). */
export function jsonArrayLength(at: JsonAt): SqlFragment {
  const path = param(at.path);
  return sql`(CASE json_type(${at.source}, ${path}) WHEN 'array' THEN json_array_length(${at.source}, ${path}) END)`;
}

/** A text that is exactly a JSON number, as that number; otherwise NULL (never 0, unlike CAST). */
export const numberFromText = (text: SqlFragment): SqlFragment =>
  sql`(CASE WHEN json_valid(${text}) THEN CASE json_type(${text})
    WHEN 'integer' THEN json_extract(${text}, '$') WHEN 'real' THEN json_extract(${text}, '$') END END)`;
