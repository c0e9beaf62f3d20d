/**
 * Prints a calls query plan (query/ir.ts) as SQLite SQL over the `calls` table.
 *
 * Contract: the SQL text holds only fixed operators, whitelisted column expressions
 * (callsColumnsSql.ts) and `?` placeholders; every literal and JSON path is a parameter. The
 * plan is already checked, so nothing here throws for a request's content. Feedback conditions
 * are EXISTS subqueries over `feedback` aliased `fb`, correlated with the call by
 * `fb.weave_ref` = `weave:///<project>/call/<id>` (the `(project_id, weave_ref)` index serves it).
 */
import { MADE_BY_WEFT_FIELD, type Condition, type FilterClause, type JsonField, type Scalar, type SortKey } from '../query/index.js';
import { referencedValue } from './callsExpandSql.js';
import { searchClause, searchWordSql } from './callSearch.js';
import { fieldSql } from './callsColumnsSql.js';
import { payloadSql } from './history/historyBlobs.js';
import { balanced, joinSql, param, raw, sql, type SqlFragment } from './sql.js';
import {
  jsonArrayLength,
  jsonBool,
  jsonDoc,
  jsonExists,
  jsonIsNull,
  jsonNumber,
  jsonPath,
  jsonText,
  numberFromText,
  type JsonAt,
} from './jsonSql.js';

/** Where a JSON field's value lives: its column, or the value its ref points to. */
function jsonAt(f: JsonField): JsonAt {
  const source = f.via ? referencedValue(jsonAt(f.via)) : raw(columnSql(f.column));
  return { source, path: jsonPath(f.path) };
}

/** A JSON column as SQL: inputs and output read as their original text (docs/history-storage.md). */
const columnSql = (column: JsonField['column']): string =>
  column === 'feedback.payload' ? 'fb.payload' : column === 'inputs' || column === 'output' ? payloadSql(column) : column;

const JSON_VIEWS = { text: jsonText, number: jsonNumber, bool: jsonBool, doc: jsonDoc } as const;

export function printScalar(s: Scalar): SqlFragment {
  switch (s.k) {
    case 'literal':
      return param(s.value);
    case 'field':
      return raw(fieldSql(s.field));
    case 'json':
      return JSON_VIEWS[s.as](jsonAt(s.field));
    case 'jsonExists':
      return jsonExists(jsonAt(s.field));
    case 'jsonArrayLength':
      return jsonArrayLength(jsonAt(s.field));
    case 'arrayLength': {
      const x = printScalar(s.of);
      return sql`(CASE WHEN json_valid(${x}) AND json_type(${x}) = 'array' THEN json_array_length(${x}) END)`;
    }
    case 'isNotNull':
      return sql`(${printScalar(s.of)} IS NOT NULL)`;
    case 'cast':
      return printCast(s.to, s.from, printScalar(s.of));
    case 'truncate':
      return sql`CAST(${printScalar(s.of)} AS INTEGER)`;
    case 'condition':
      return printCondition(s.condition);
    case 'searchWord':
      return searchWordSql(s.search);
    case 'feedbackNewest':
      return sql`(SELECT ${printScalar(s.value)} FROM feedback fb WHERE ${feedbackRows(s.feedbackType)} AND ${printScalar(s.has)} ORDER BY fb.created_at DESC, fb.id DESC LIMIT 1)`;
  }
}

function printCast(to: 'number' | 'text' | 'bool', from: string, x: SqlFragment): SqlFragment {
  switch (`${to}<-${from}`) {
    case 'number<-text':
      return numberFromText(x);
    case 'number<-datetime':
      return sql`(${x} / 1000000.0)`;
    case 'text<-number':
      return sql`CAST(${x} AS TEXT)`;
    case 'text<-bool':
      return sql`(CASE ${x} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`;
    case 'text<-datetime':
      return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${x} / 1000000.0, 'unixepoch')`;
    case 'bool<-number':
      return sql`(${x} <> 0)`;
    case 'bool<-text':
      return sql`(CASE lower(${x}) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
    default:
      // The planner only builds the casts above; the others are the identity.
      return x;
  }
}

export function printCondition(c: Condition): SqlFragment {
  switch (c.k) {
    case 'and':
    case 'or':
      return balanced(c.items.map(printCondition), c.k === 'and' ? ' AND ' : ' OR ');
    case 'not':
      // Three-valued, as SQL's NOT: an undecidable (NULL) item stays undecidable, which WHERE drops.
      return sql`(NOT ${printCondition(c.item)})`;
    case 'truthy':
      return printScalar(c.value);
    case 'compare':
      return sql`(${printScalar(c.left)} ${raw(c.op)} ${printScalar(c.right)})`;
    case 'isNull':
      return sql`(${printScalar(c.value)} IS NULL)`;
    case 'jsonMissing':
      return jsonIsNull(jsonAt(c.field));
    case 'in': {
      const parts = c.groups.map((g) => sql`${printScalar(g.left)} IN (${inList(g.items.map(printScalar))})`);
      if (c.orNull) parts.push(printCondition(c.orNull));
      return sql`(${joinSql(parts, ' OR ')})`;
    }
    case 'contains': {
      const fold = (x: SqlFragment) => (c.caseInsensitive ? sql`lower(${x})` : x);
      // instr(), so `%` and `_` in the needle are plain characters.
      return sql`(instr(${fold(printScalar(c.input))}, ${fold(printScalar(c.substr))}) > 0)`;
    }
    case 'containsToken': {
      const fold = (x: SqlFragment) => (c.caseInsensitive ? sql`lower(${x})` : x);
      const input = tokenSeparatorsToSpaces(fold(printScalar(c.input)));
      return sql`(instr(' ' || ${input} || ' ', ${fold(param(` ${c.token} `))}) > 0)`;
    }
    case 'feedback':
      return feedbackExists(c.feedbackType, printCondition(c.where));
    case 'noFeedback':
      return sql`(NOT ${feedbackExists(c.feedbackType, printCondition(c.where))})`;
    case 'false':
      return raw('0');
  }
}

/**
 * The right side of IN. A list of plain literals travels as one JSON array parameter read by
 * `json_each`, so however long the list, the statement binds one value (SQLite allows 32,766
 * per statement) and its text stays the same (one cached prepared statement).
 */
function inList(list: SqlFragment[]): SqlFragment {
  const scalars: unknown[] = [];
  for (const item of list) {
    const bound = item.params[0];
    const scalar = typeof bound === 'string' || typeof bound === 'bigint' || (typeof bound === 'number' && Number.isFinite(bound));
    if (item.sql !== '?' || item.params.length !== 1 || !scalar) return joinSql(list, ', ');
    // Bigints are safe integers (param() makes them), so Number() keeps them exact.
    scalars.push(typeof bound === 'bigint' ? Number(bound) : bound);
  }
  return { sql: 'SELECT value FROM json_each(?)', params: [JSON.stringify(scalars)] };
}

/** ASCII characters that separate tokens: everything but letters and digits (space stays). */
const SEPARATOR_CODES = Array.from({ length: 127 }, (_, i) => i + 1).filter((c) => c !== 32 && !/[A-Za-z0-9]/.test(String.fromCharCode(c)));

function tokenSeparatorsToSpaces(text: SqlFragment): SqlFragment {
  return SEPARATOR_CODES.reduce((s, code) => sql`replace(${s}, char(${raw(String(code))}), ' ')`, text);
}

/** The feedback rows of the call being filtered, of one type or of every type. */
function feedbackRows(feedbackType: string | null): SqlFragment {
  const base = raw("fb.project_id = calls.project_id AND fb.weave_ref = 'weave:///' || calls.project_id || '/call/' || calls.id");
  return feedbackType === null ? base : sql`${base} AND fb.feedback_type = ${param(feedbackType)}`;
}

const feedbackExists = (feedbackType: string | null, condition: SqlFragment): SqlFragment =>
  sql`EXISTS (SELECT 1 FROM feedback fb WHERE ${feedbackRows(feedbackType)} AND ${condition})`;

/** One ORDER BY key; SQLite already puts NULLs last when descending. */
export function printSortKey(key: SortKey): SqlFragment {
  const dir = key.direction === 'desc' ? 'DESC' : key.nullable ? 'ASC NULLS LAST' : 'ASC';
  return sql`${printScalar(key.value)} ${raw(dir)}`;
}

/** One CallsFilter clause. Lists travel as one JSON array parameter: any length binds one value. */
export function printFilterClause(c: FilterClause): SqlFragment {
  switch (c.k) {
    case 'in':
      if (c.values.length === 0) return raw('0');
      return { sql: `${c.column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(c.values)] };
    case 'opNames': {
      const parts: string[] = [];
      const params: unknown[] = [];
      if (c.exact.length) {
        parts.push('op_name IN (SELECT value FROM json_each(?))');
        params.push(JSON.stringify(c.exact));
      }
      for (const p of c.prefixes) {
        // `name:*` as a range (p <= op_name < p with its last character ':' raised to ';'), which
        // the (project_id, op_name) index serves; for binary text it holds exactly when op_name
        // starts with p.
        parts.push('(op_name >= ? AND op_name < ?)');
        params.push(p, p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1));
      }
      return { sql: `(${parts.join(' OR ')})`, params };
    }
    case 'refs':
      return {
        sql: `EXISTS (SELECT 1 FROM json_each(${c.column}) r WHERE r.value IN (SELECT value FROM json_each(?)))`,
        params: [JSON.stringify(c.refs)],
      };
    case 'traceRoots':
      return { sql: 'parent_id IS NULL', params: [] };
    case 'weftMade': {
      const at = jsonAt(MADE_BY_WEFT_FIELD);
      return c.made ? jsonExists(at) : jsonIsNull(at);
    }
    case 'search':
      return searchClause(c.search);
  }
}
