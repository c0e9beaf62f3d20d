/**
 * Prints a calls query plan (query/ir.ts) as ClickHouse SQL over `calls FINAL`, as
 * sqlite/callsSql.ts does for SQLite.
 *
 * Contract: the SQL text holds only fixed operators, whitelisted column expressions
 * (callsColumnsSql.ts) and `{name:Type}` placeholders; every literal, JSON key and index is a
 * parameter, and the project is the statement's `{p:String}`. The plan is already checked, so
 * nothing here throws for a request's content.
 *
 * How the plan's meanings map to ClickHouse:
 * - NULL is undecidable: comparisons with it are NULL, and `and`/`or`/`not` are three-valued as
 *   in SQLite; the whole condition is read as false when NULL (`ifNull(…, 0)`);
 * - ClickHouse has no correlated subqueries on the minimum server version, so a feedback
 *   condition is the call's ref `IN` the refs of the feedback rows that satisfy it (the condition
 *   reads only the feedback row, the planner sees to that), and a sort by the newest feedback
 *   value looks the call up in a map built once per statement (as expanded refs do,
 *   callsExpandSql.ts);
 * - `$in` lists of literals bind as one array parameter of the group's type.
 */
import { searchCandidates, searchClause, searchWordSql, type SearchGrams } from './callSearch.js';
import type { JsonValue } from '../../../contract/common.js';
import {
  MADE_BY_WEFT_FIELD,
  type CallsSearch,
  type Condition,
  type FilterClause,
  type InGroup,
  type JsonField,
  type Scalar,
  type SortKey,
  type ValueType,
} from '../query/index.js';
import type { Params } from './ClickHouseDatabase.js';
import { fieldSql } from './callsColumnsSql.js';
import { referencedValue } from './callsExpandSql.js';
import { jsonArrayLength, jsonBool, jsonDoc, jsonExists, jsonIsNull, jsonNumber, jsonRaw, jsonText, numberFromText } from './jsonSql.js';
import { ParamSet } from './tableQuery.js';

const JSON_VIEWS = { text: jsonText, number: jsonNumber, bool: jsonBool, doc: jsonDoc } as const;

/** The ref a feedback row of the current call carries. */
const CALL_REF = "concat('weave:///', project_id, '/call/', id)";

/** Array element types of `$in` groups bound as one parameter. */
const ARRAY_TYPE: Record<ValueType, string> = {
  text: 'Array(String)',
  doc: 'Array(String)',
  number: 'Array(Float64)',
  bool: 'Array(UInt8)',
  datetime: 'Array(Int64)',
};

/** List filters whose column has a bloom filter on `calls` (listPrewhere). */
const INDEXED_LISTS: ReadonlySet<string> = new Set(['trace_id', 'parent_id', 'thread_id']);

/**
 * The ids of the project's calls any of whose parts has `column` among `values` (a bound array),
 * read without FINAL so that the column's bloom filter picks the granules: for `id IN (...)` in a
 * PREWHERE, the same test in WHERE deciding after the merge (listPrewhere).
 */
export const callIdsWhereSql = (column: string, values: string): string =>
  `SELECT id FROM calls WHERE project_id = {p:String} AND ${column} IN ${values}`;

/** The printer of one statement's plan nodes; parameters go to `params`. */
export class CallsSqlPrinter {
  readonly #p: ParamSet;
  readonly #grams: SearchGrams | undefined;
  /** Each list filter's bound values, bound once though both PREWHERE and WHERE test them (listPrewhere). */
  readonly #lists = new WeakMap<FilterClause, string>();
  /** The searches whose candidates the statement's PREWHERE holds (searchPrewhere). */
  readonly #inPrewhere = new Set<CallsSearch>();
  /** `grams`: the posting lists chosen for the statement's searches (callSearch.ts), when read. */
  constructor(params: Params, grams?: SearchGrams) {
    this.#p = new ParamSet(params);
    this.#grams = grams;
  }

  /** A search's candidates for the statement's PREWHERE, then left out of its WHERE; null when it has none. */
  searchPrewhere(search: CallsSearch): string | null {
    const sql = searchCandidates(search, (v, type) => this.#p.add(v, type), this.#grams);
    if (sql) this.#inPrewhere.add(search);
    return sql;
  }

  /**
   * A list filter as a condition on `id` alone, for the statement's PREWHERE, when its column
   * finds calls without FINAL: `id` is the key, and `trace_id`, `parent_id` and `thread_id` have
   * bloom filters that FINAL's exact mode widens to every part's overlapping granules (a
   * 1,000-call trace at 10M calls: 724 granules read instead of 28). The rows of any part holding
   * a listed value give the ids: a superset, which the same test in WHERE decides after the merge.
   */
  listPrewhere(c: FilterClause): string | null {
    if (c.k !== 'in' || c.values.length === 0) return null;
    const values = this.#listValues(c);
    if (c.column === 'id') return `id IN ${values}`;
    if (!INDEXED_LISTS.has(c.column)) return null;
    return `id IN (${callIdsWhereSql(c.column, values)})`;
  }

  #listValues(c: Extract<FilterClause, { k: 'in' }>): string {
    let bound = this.#lists.get(c);
    if (!bound) this.#lists.set(c, (bound = this.#p.add(c.values, 'Array(String)')));
    return bound;
  }

  /** A literal: booleans as 1/0, whole numbers as Int64, objects and lists as their JSON text. */
  literal(value: JsonValue): string {
    if (value === null) return 'NULL';
    if (typeof value === 'boolean') return this.#p.add(value ? 1 : 0, 'UInt8');
    if (typeof value === 'number') return Number.isSafeInteger(value) ? this.#p.add(value, 'Int64') : this.#p.add(value, 'Float64');
    if (typeof value === 'string') return this.#p.add(value, 'String');
    return this.#p.add(JSON.stringify(value), 'String');
  }

  /** The raw JSON text of a JSON field: its column, the feedback row's payload, or what its ref points to. */
  #raw(f: JsonField): string {
    const source = f.via
      ? `ifNull(${referencedValue(this.#raw(f.via))}, '')`
      : f.column === 'feedback.payload'
        ? 'fb.payload'
        : `ifNull(${f.column}, '')`;
    return jsonRaw(source, f.path, this.#p);
  }

  scalar(s: Scalar): string {
    switch (s.k) {
      case 'literal':
        return this.literal(s.value);
      case 'field':
        return fieldSql(s.field);
      case 'json':
        return JSON_VIEWS[s.as](this.#raw(s.field));
      case 'jsonExists':
        return jsonExists(this.#raw(s.field));
      case 'jsonArrayLength':
        return jsonArrayLength(this.#raw(s.field));
      case 'arrayLength':
        return jsonArrayLength(`JSONExtractRaw(ifNull(${this.scalar(s.of)}, ''))`);
      case 'isNotNull':
        return `isNotNull(${this.scalar(s.of)})`;
      case 'cast':
        return printCast(s.to, s.from, this.scalar(s.of));
      case 'truncate':
        // Toward zero; kept a Float64, so no value (inf, beyond Int64) fails a conversion.
        return `trunc(${this.scalar(s.of)})`;
      case 'condition':
        return this.condition(s.condition);
      case 'searchWord':
        return searchWordSql(s.search, (v, type) => this.#p.add(v, type));
      case 'feedbackNewest':
        return this.#feedbackNewest(s);
    }
  }

  /**
   * The value in the newest row (created_at, then id) of the call's feedback of the type for
   * which `has` holds: the project's such rows are grouped by call ref into a map once per
   * statement. The value travels in a tuple so a NULL value is kept, not skipped by argMax.
   */
  #feedbackNewest(s: Extract<Scalar, { k: 'feedbackNewest' }>): string {
    const newest = `SELECT fb.weave_ref AS ref, argMax(tuple(${this.scalar(s.value)}), (fb.created_at, fb.id)) AS v
      FROM feedback AS fb FINAL WHERE ${this.#feedbackRows(s.feedbackType)} AND ifNull(${this.scalar(s.has)}, 0) GROUP BY fb.weave_ref`;
    return `tupleElement((SELECT mapFromArrays(groupArray(ref), groupArray(v)) FROM (${newest}))[${CALL_REF}], 1)`;
  }

  /** A condition as a 0/1 expression, NULL when undecidable (callers use `where` for the top). */
  condition(c: Condition): string {
    switch (c.k) {
      case 'and':
      case 'or':
        return c.items.length === 1 ? this.condition(c.items[0]!) : `${c.k}(${c.items.map((i) => this.condition(i)).join(', ')})`;
      case 'not':
        // Three-valued: NOT of an undecidable (NULL) item stays NULL, which `where` reads as false.
        return `(NOT ${this.condition(c.item)})`;
      case 'truthy':
        return this.scalar(c.value);
      case 'compare':
        return `(${this.scalar(c.left)} ${c.op} ${this.scalar(c.right)})`;
      case 'isNull':
        return `isNull(${this.scalar(c.value)})`;
      case 'jsonMissing':
        return jsonIsNull(this.#raw(c.field));
      case 'in': {
        const parts = c.groups.map((g) => this.#inGroup(g));
        if (c.orNull) parts.push(this.condition(c.orNull));
        return parts.length === 1 ? parts[0]! : `or(${parts.join(', ')})`;
      }
      case 'contains': {
        // lower() folds ASCII only, as SQLite's does; position() takes the needle literally.
        const fold = (x: string) => (c.caseInsensitive ? `lower(${x})` : x);
        return `(position(${fold(this.scalar(c.input))}, ${fold(this.scalar(c.substr))}) > 0)`;
      }
      case 'containsToken': {
        // Tokens are runs of ASCII letters and digits and non-ASCII bytes, the plan's definition.
        const fn = c.caseInsensitive ? 'hasTokenCaseInsensitive' : 'hasToken';
        return `${fn}(${this.scalar(c.input)}, ${this.#p.add(c.token, 'String')})`;
      }
      case 'feedback':
        return `(${CALL_REF} IN (${this.#feedbackRefs(c.feedbackType, c.where)}))`;
      case 'noFeedback':
        return `(${CALL_REF} NOT IN (${this.#feedbackRefs(c.feedbackType, c.where)}))`;
      case 'false':
        return '0';
    }
  }

  /** The whole condition for WHERE: undecidable is false. */
  where(c: Condition): string {
    return `ifNull(${this.condition(c)}, 0)`;
  }

  /** One `$in` group: a list of literals binds as one array, anything else compares item by item. */
  #inGroup(g: InGroup): string {
    const left = this.scalar(g.left);
    if (g.items.every((i) => i.k === 'literal' && i.value !== null)) {
      const values = g.items.map((i) => toArrayValue((i as { value: JsonValue }).value, g.type));
      const lhs = g.type === 'number' ? `toFloat64(${left})` : left;
      return `(${lhs} IN ${this.#p.add(values, ARRAY_TYPE[g.type])})`;
    }
    const equal = g.items.map((i) => `(${left} = ${this.scalar(i)})`);
    return equal.length === 1 ? equal[0]! : `or(${equal.join(', ')})`;
  }

  /** The feedback rows of the project (of one type, or of every type). */
  #feedbackRows(feedbackType: string | null): string {
    const base = 'fb.project_id = {p:String}';
    return feedbackType === null ? base : `${base} AND fb.feedback_type = ${this.#p.add(feedbackType, 'String')}`;
  }

  /** The call refs of the feedback rows that satisfy `where` (which reads only the row). */
  #feedbackRefs(feedbackType: string | null, where: Condition): string {
    return `SELECT fb.weave_ref FROM feedback AS fb FINAL WHERE ${this.#feedbackRows(feedbackType)} AND ${this.where(where)}`;
  }

  /** One ORDER BY key; NULLs last both ways, as the plan says. */
  sortKey(key: SortKey): string {
    return `${this.scalar(key.value)} ${key.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
  }

  /** One CallsFilter clause (ir.ts `FilterClause`); lists bind as one Array(String) parameter. */
  filterClause(c: FilterClause): string {
    switch (c.k) {
      case 'in':
        return c.values.length === 0 ? '0' : `${c.column} IN ${this.#listValues(c)}`;
      case 'opNames': {
        const parts: string[] = [];
        if (c.exact.length) parts.push(`op_name IN ${this.#p.add(c.exact, 'Array(String)')}`);
        for (const prefix of c.prefixes) parts.push(`startsWith(op_name, ${this.#p.add(prefix, 'String')})`);
        return `(${parts.join(' OR ')})`;
      }
      case 'refs':
        return `hasAny(JSONExtract(ifNull(${c.column}, '[]'), 'Array(String)'), ${this.#p.add(c.refs, 'Array(String)')})`;
      case 'traceRoots':
        return 'parent_id IS NULL';
      case 'weftMade': {
        const raw = this.#raw(MADE_BY_WEFT_FIELD);
        return c.made ? jsonExists(raw) : jsonIsNull(raw);
      }
      case 'search':
        return searchClause(c.search, (v, type) => this.#p.add(v, type), this.#grams, this.#inPrewhere.has(c.search));
    }
  }
}

/** A literal as an element of a group's array parameter (booleans count 1/0 among numbers). */
function toArrayValue(value: JsonValue, type: ValueType): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (type === 'doc' && typeof value === 'object') return JSON.stringify(value);
  return value;
}

function printCast(to: 'number' | 'text' | 'bool', from: ValueType, x: string): string {
  switch (`${to}<-${from}`) {
    case 'number<-text':
      return numberFromText(x);
    case 'number<-datetime':
      return `(${x} / 1000000)`;
    case 'text<-number':
      return `toString(${x})`;
    case 'text<-bool':
      return `multiIf(${x} = 1, 'true', ${x} = 0, 'false', NULL)`;
    case 'text<-datetime': {
      // ISO 8601 with milliseconds, rounded to the nearest as SQLite's strftime rounds.
      const ms = `intDiv(${x} + 500, 1000)`;
      return `concat(formatDateTime(toDateTime(intDiv(${ms}, 1000), 'UTC'), '%Y-%m-%dT%H:%i:%S'), '.', leftPad(toString(${ms} % 1000), 3, '0'), 'Z')`;
    }
    case 'bool<-number':
      return `(${x} != 0)`;
    case 'bool<-text':
      return `multiIf(lower(${x}) = 'true', 1, lower(${x}) = 'false', 0, NULL)`;
    default:
      // The planner only builds the casts above; the others are the identity.
      return x;
  }
}
