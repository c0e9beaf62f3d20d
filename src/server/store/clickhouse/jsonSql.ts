/**
 * Views of a JSON value in ClickHouse SQL: how the value at a path of some JSON text reads as
 * text, number, boolean or document (the four views of query/ir.ts `JsonView`), mirroring
 * sqlite/jsonSql.ts.
 *
 * Contract: a path is walked to the value's raw JSON text with `JSONExtractRaw` (keys and
 * indexes are `{tN:Type}` parameters), which is '' when the path is missing and 'null' for JSON
 * null; every view reads that text. `source` is SQL the caller owns (a column, never NULL: wrap
 * it in ifNull). ClickHouse re-serialises the raw text minified, as SQLite's `->` does.
 */
import { isListIndex } from '../../core/fieldPath.js';
import type { ParamSet } from './tableQuery.js';

const NUMBER_TYPES = "('Int64', 'UInt64', 'Double')";

/**
 * The raw JSON text at `path` inside `source`. Keys walk objects only (a key on a list is
 * missing); an index part walks lists only (ClickHouse would pick the n-th member of an object,
 * SQLite's `[n]` does not), counting from 1 in ClickHouse.
 */
export function jsonRaw(source: string, path: string[], p: ParamSet): string {
  let expr = source;
  let keys: string[] = [];
  const flush = () => {
    expr = `JSONExtractRaw(${[expr, ...keys].join(', ')})`;
    keys = [];
  };
  for (const part of path) {
    if (!isListIndex(part)) {
      keys.push(p.add(part, 'String'));
      continue;
    }
    flush();
    const index = Number(part) + 1;
    // An index no list can reach (beyond Int64 parameters) is simply missing.
    expr = Number.isSafeInteger(index)
      ? withValue(expr, (list) => `if(JSONType(${list}) = 'Array', JSONExtractRaw(${list}, ${p.add(index, 'Int64')}), '')`)
      : "''";
  }
  // Also with no keys left: reading the whole text through JSONExtractRaw validates and minifies it.
  flush();
  return expr;
}

/**
 * `body` over the value of `expr`, which the SQL text holds once: a one-element lambda call.
 * Without it, each step that reads its input twice would double the text of nested paths and
 * expanded refs (ClickHouse merges the repeated work, but the text must stay under max_query_size).
 */
export const withValue = (expr: string, body: (x: string) => string): string => `arrayMap(x_ -> ${body('x_')}, [${expr}])[1]`;

/** Missing or JSON null. */
export const jsonIsNull = (raw: string): string => `(${raw} IN ('', 'null'))`;

/** True when the path holds a value other than JSON null. */
export const jsonExists = (raw: string): string => `(${raw} NOT IN ('', 'null'))`;

/**
 * Strings as they are, true/false as 'true'/'false', numbers their digits, objects and lists
 * their JSON, a missing path and JSON null ''.
 */
export const jsonText = (raw: string): string =>
  `multiIf(${jsonIsNull(raw)}, '', JSONType(${raw}) = 'String', JSONExtractString(${raw}), ${raw})`;

/** JSON numbers, and strings that hold exactly a JSON number ("42"); anything else is NULL. */
export const jsonNumber = (raw: string): string =>
  `multiIf(JSONType(${raw}) IN ${NUMBER_TYPES}, JSONExtractFloat(${raw}), JSONType(${raw}) = 'String', ${numberFromText(`JSONExtractString(${raw})`)}, NULL)`;

/** JSON true/false as 1/0; anything else is NULL. */
export const jsonBool = (raw: string): string => `if(JSONType(${raw}) = 'Bool', JSONExtractBool(${raw}), NULL)`;

/** The minified JSON text, to compare with an object or list literal; '' when missing or null. */
export const jsonDoc = (raw: string): string => `if(${jsonIsNull(raw)}, '', ${raw})`;

/** The length of the list at the path; NULL for anything else. */
export const jsonArrayLength = (raw: string): string => `if(JSONType(${raw}) = 'Array', JSONLength(${raw}), NULL)`;

/**
 * A text that is exactly a JSON number (RFC 8259, surrounding whitespace allowed, as SQLite's
 * json_valid reads it), as that number; otherwise NULL (never 0). ClickHouse's JSON parser is
 * as strict: '01', '+1', '.5', 'NaN' are not numbers.
 */
export const numberFromText = (text: string): string =>
  `if(JSONType(ifNull(${text}, '')) IN ${NUMBER_TYPES}, JSONExtractFloat(ifNull(${text}, '')), NULL)`;
