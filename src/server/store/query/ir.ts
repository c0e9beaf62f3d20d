/**
 * The typed plan of a calls query: what the planner in this folder produces and what each
 * backend prints as SQL. Every node is already checked (fields exist, types agree, operand
 * shapes are valid); a printer never throws for a request's content, it only renders.
 *
 * Values are typed: `text`, `number`, `bool` (compared as 1/0 or true/false), `datetime` (epoch
 * microseconds) and `doc` (an object or list, compared as its minified JSON text).
 */
import type { JsonValue } from '../../../contract/common.js';

export type ValueType = 'text' | 'number' | 'bool' | 'datetime' | 'doc';

/** Type of a top-level value: datetimes are epoch-microsecond integers. */
export type ScalarType = 'text' | 'number' | 'datetime';

// ---------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------

/** A top-level column of a call that queries may read (CallSchema names). */
export type QueryColumn =
  | 'id'
  | 'project_id'
  | 'op_name'
  | 'display_name'
  | 'trace_id'
  | 'parent_id'
  | 'thread_id'
  | 'turn_id'
  | 'started_at'
  | 'ended_at'
  | 'deleted_at'
  | 'exception'
  | 'wb_user_id'
  | 'wb_run_id'
  | 'wb_run_step'
  | 'wb_run_step_end';

export interface ColumnField {
  kind: 'column';
  column: QueryColumn;
  type: ScalarType;
  /** Whether visible calls can hold NULL here (sorting puts NULLs last). */
  nullable: boolean;
  /** An empty string reads as NULL (display_name: reads return an empty name as null). */
  emptyIsNull?: true;
}

/**
 * `summary.weave.*` values computed from the row, as the reference filters and sorts them:
 * - status: 'error' when the call has an exception, else 'descendant_error' when
 *   `summary.status_counts.error` > 0, else 'running' while it has no end, else 'success';
 * - latency_ms: whole milliseconds from start to end (integer division), NULL while running;
 * - trace_name: the display name unless empty, else the op's base name;
 * - total_tokens, input_tokens, output_tokens, total_cost (Weft extensions): the call's usage
 *   tokens (core/usage.ts rule)
 *   and what they cost at the prices in force when the call started (NULL when unpriced).
 */
export interface ComputedField {
  kind: 'computed';
  name: 'status' | 'latency_ms' | 'trace_name' | 'total_tokens' | 'input_tokens' | 'output_tokens' | 'total_cost';
  type: ScalarType;
  nullable: boolean;
}

/** `runnable_ref` / `trigger_ref` of a feedback row, inside a feedback condition. */
export interface FeedbackColumnField {
  kind: 'feedbackColumn';
  column: 'runnable_ref' | 'trigger_ref';
  type: 'text';
  nullable: true;
}

export type ScalarField = ColumnField | ComputedField | FeedbackColumnField;

/** A JSON column of a call, or a feedback row's payload (inside a feedback condition). */
export type JsonColumn = 'inputs' | 'output' | 'attributes' | 'summary' | 'feedback.payload';

export interface JsonField {
  kind: 'json';
  column: JsonColumn;
  /** Keys and list indexes below the column (core/fieldPath.ts `isListIndex` tells which). */
  path: string[];
  /**
   * Read the value the ref at `via` points to, instead of `column` (`expand_columns`): an
   * object version of the call's project, or for a dataset-row ref
   * (`.../object/<dataset>:<digest>/attr/rows/id/<row digest>`) that table row. A value that is
   * not such a ref, a ref to another project, a missing or deleted object reads as missing.
   * `via` may itself read through a shorter expansion.
   */
  via?: JsonField;
}

/** A feedback field: which rows (`feedbackType`, null for `*`) and what to read in them. */
export interface FeedbackField {
  kind: 'feedback';
  feedbackType: string | null;
  target: JsonField | FeedbackColumnField;
}

export type CallField = ScalarField | JsonField | FeedbackField;

// ---------------------------------------------------------------------------------------
// Values and conditions
// ---------------------------------------------------------------------------------------

/** How a JSON value is read: the four views every comparison picks from. */
export type JsonView = 'text' | 'number' | 'bool' | 'doc';

/**
 * A value expression. NULL means "undecidable": a comparison with it is false.
 * - `literal`: one bound value. Booleans bind as the backend's true/false (1/0), whole numbers
 *   as integers, objects and lists as JSON text, null as NULL. Datetime literals are already
 *   epoch microseconds.
 * - `json`: a JSON path read as one view. text: strings as they are, true/false as 'true' /
 *   'false', numbers as their digits, objects and lists as their JSON; number: JSON numbers and
 *   strings that hold exactly a JSON number ("42"), else NULL; bool: JSON true/false, else NULL;
 *   doc: the minified JSON text of the value. A missing path and JSON null read as '' in the
 *   text and doc views (as the reference's JSON_VALUE reads them) and as NULL in the others.
 * - `jsonExists`: the path holds a value other than JSON null (never NULL itself).
 * - `jsonArrayLength`: the length of the list at the path; NULL when it is not a list.
 * - `arrayLength`: the same for a text/doc value holding JSON.
 * - `isNotNull`: true unless the value is NULL.
 * - `cast`: `$convert` between types; values that do not convert become NULL. number←text:
 *   as jsonNumber reads a string; number←datetime: unix seconds (µs / 1e6, fractional);
 *   text←number: its digits; text←bool: 'true'/'false'; text←datetime: ISO 8601 with
 *   milliseconds and `Z`; bool←number: `<> 0`; bool←text: 'true'/'false' in any case.
 * - `truncate`: toward zero, to an integer.
 * - `condition`: a nested condition used as a boolean.
 * - `searchWord` (sort keys only): 1 when the call holds a search needle as a whole word, else 0
 *   (callsSearch.ts).
 * - `feedbackNewest` (sort keys only): `value` read in the newest feedback row of the type
 *   (created_at, then id, descending) for which `has` holds; NULL when there is none.
 */
export type Scalar =
  | { k: 'literal'; value: JsonValue }
  | { k: 'field'; field: ScalarField }
  | { k: 'json'; field: JsonField; as: JsonView }
  | { k: 'jsonExists'; field: JsonField }
  | { k: 'jsonArrayLength'; field: JsonField }
  | { k: 'arrayLength'; of: Scalar }
  | { k: 'isNotNull'; of: Scalar }
  | { k: 'cast'; to: 'number' | 'text' | 'bool'; from: ValueType; of: Scalar }
  | { k: 'truncate'; of: Scalar }
  | { k: 'condition'; condition: Condition }
  | { k: 'feedbackNewest'; feedbackType: string | null; has: Scalar; value: Scalar }
  | { k: 'searchWord'; search: CallsSearch };

export type Comparison = '=' | '>' | '>=' | '<' | '<=';

/**
 * A condition over one call, three-valued as in SQL: a comparison with a NULL operand is
 * undecidable (NULL), `and`/`or`/`not` combine as SQL's do, and a call matches only when the
 * whole condition is true.
 * - `and`/`or`: at least one item (printers may balance long lists).
 * - `not`: true when the item is false, false when it is true, undecidable when it is.
 * - `truthy`: a bool-typed value used as a condition.
 * - `compare`: both sides already of `type`.
 * - `isNull`: the value is NULL; `jsonMissing`: the path is missing or holds JSON null.
 * - `in`: `left` equals one of `items`, per type group; any of the groups or `orNull` holds. A
 *   group whose `left` is NULL is undecidable, as SQL's IN is.
 * - `contains`: `substr` is a substring of `input` (no wildcards); case-insensitive folds ASCII.
 * - `containsToken`: `token` appears in `input` as a whole token, tokens being runs of
 *   characters other than ASCII punctuation, whitespace and controls (ClickHouse hasToken).
 * - `feedback`/`noFeedback`: some / no feedback row of the call (of `feedbackType`, or of any
 *   type for null) satisfies `where`. A feedback row belongs to a call when its project is the
 *   call's and its weave_ref is `weave:///<project>/call/<id>`.
 */
export type Condition =
  | { k: 'and' | 'or'; items: Condition[] }
  | { k: 'not'; item: Condition }
  | { k: 'truthy'; value: Scalar }
  | { k: 'compare'; op: Comparison; type: ValueType; left: Scalar; right: Scalar }
  | { k: 'isNull'; value: Scalar }
  | { k: 'jsonMissing'; field: JsonField }
  | { k: 'in'; groups: InGroup[]; orNull: Condition | null }
  | { k: 'contains'; input: Scalar; substr: Scalar; caseInsensitive: boolean }
  | { k: 'containsToken'; input: Scalar; token: string; caseInsensitive: boolean }
  | { k: 'feedback' | 'noFeedback'; feedbackType: string | null; where: Condition }
  | { k: 'false' };

/** Values of one type in an `$in` list, compared with `left` read as that type. */
export interface InGroup {
  type: ValueType;
  left: Scalar;
  items: Scalar[];
}

/**
 * One ORDER BY key. NULLs sort last in both directions, as in ClickHouse, where production
 * sorts; `nullable: false` tells a printer the key is never NULL on a visible call (so SQLite
 * can walk an index for it).
 */
export interface SortKey {
  value: Scalar;
  direction: 'asc' | 'desc';
  nullable: boolean;
}

/** A content search (callsSearch.ts). */
export interface CallsSearch {
  /** The search text as sent (trimmed). */
  text: string;
  /** The lowercased forms to look for: as written, and as escaped in JSON text when that differs. */
  needles: string[];
}

// ---------------------------------------------------------------------------------------
// CallsFilter (the structured filter beside `$expr`)
// ---------------------------------------------------------------------------------------

/** A list-valued CallsFilter field: the column equals one of `values` (none: matches nothing). */
export type FilterListColumn = 'parent_id' | 'trace_id' | 'id' | 'thread_id' | 'turn_id' | 'wb_user_id' | 'wb_run_id';

/**
 * One set CallsFilter field; the clauses are ANDed.
 * - `opNames`: op_name is one of `exact`, or starts with one of `prefixes` (a `name:*` entry,
 *   its `*` dropped, so the prefix ends with `:`).
 * - `refs`: the call's input (or output) refs include one of `refs`.
 * - `traceRoots`: parent_id is NULL.
 * - `weftMade`: the call carries (made) or lacks (!made) a non-null `attributes.weft.source`.
 * - `search`: the call's content holds the search text (callsSearch.ts): a backend narrows with
 *   its substring index and decides with the rule.
 */
export type FilterClause =
  | { k: 'in'; column: FilterListColumn; values: string[] }
  | { k: 'opNames'; exact: string[]; prefixes: string[] }
  | { k: 'refs'; column: 'input_refs' | 'output_refs'; refs: string[] }
  | { k: 'traceRoots' }
  | { k: 'weftMade'; made: boolean }
  | { k: 'search'; search: CallsSearch };
