/**
 * Filtering and sorting *through* refs (`expand_columns`), for the calls query compiler.
 *
 * Contract: while a query compiles inside `withExpandColumns(columns, ...)`, a field path that
 * continues below one of `columns` (`inputs.model.name` with `inputs.model` listed) reads the
 * value the ref at that column points to: an object version of the call's project, or, for a
 * dataset-row ref (`.../object/<dataset>:<digest>/attr/rows/id/<row digest>`), that table row.
 * The field is an ordinary JsonField whose `source` is a correlated subquery yielding the
 * referenced value's JSON, so every comparison, `$convert` and sort key works unchanged. Nested
 * expansions (`inputs.model` and `inputs.model.prompt`) chain: the inner ref is read out of the
 * outer object. A value that is not such a ref, a ref to another project, a missing or a deleted
 * object reads as missing (NULL), as the reference's join finds no row.
 *
 * The lookup uses the objects primary key (project_id, object_id, digest) and the table_rows
 * primary key (project_id, digest), once per candidate call; the ref text is cut apart with
 * substr/instr, so no value ever enters the SQL text.
 *
 * Why a module-level setting: the compiler's field resolution (callsFields.ts) is called from
 * deep inside the expression and sort compilers; compiling is synchronous, so the columns set
 * for one compile cannot leak into another, and no compiler signature had to change.
 */
import { jsonPath, raw, sql, splitFieldPath, type JsonField } from './callsFields.js';
import type { SqlFragment } from './callsQuery.js';

let active: readonly string[] = [];

/** Runs a (synchronous) compile with the request's `expand_columns` in effect. */
export function withExpandColumns<T>(columns: readonly string[] | null | undefined, compile: () => T): T {
  const previous = active;
  active = (columns ?? []).filter((c) => c.length > 0);
  try {
    return compile();
  } finally {
    active = previous;
  }
}

/**
 * The field for `path` when it goes through an expanded ref, else null. `resolveBase` resolves
 * the ref's own column (which may itself lie inside a shorter expansion).
 */
export function expandedField(path: string, resolveBase: (path: string) => unknown): JsonField | null {
  const through = active.filter((c) => path.startsWith(`${c}.`)).sort((a, b) => b.length - a.length)[0];
  if (!through) return null;
  const base = resolveBase(through) as { kind: string } & Partial<JsonField>;
  if (base.kind !== 'json') return null;
  const rest = splitFieldPath(path.slice(through.length + 1));
  if (rest.some((p) => p === '')) return null;
  return { kind: 'json', column: base.column!, path: jsonPath(rest), source: referencedValue(base as JsonField) };
}

const ROWS_EDGE = '/attr/rows/id/';

/**
 * SQL yielding the JSON text of what the ref at `field` points to (NULL when nothing). The ref
 * is read once per evaluation, in a FROM subquery (`x.r`; `x.t` is what follows the project's
 * object prefix `x.p`), not once per use: each use would re-parse the call's JSON column.
 */
function referencedValue(field: JsonField): SqlFragment {
  const ref = sql`json_extract(${field.source ?? raw(field.column)}, ${{ sql: '?', params: [field.path] }})`;
  const rowsEdge = { sql: '?', params: [ROWS_EDGE] };
  // An object ref names `<object id>:<digest>` after the prefix; a dataset-row ref continues
  // with the rows edge, the row digest being what follows it.
  return sql`(SELECT CASE
    WHEN substr(x.r, 1, length(x.p)) = x.p AND instr(x.r, ${rowsEdge}) > 0
      THEN (SELECT tr.val FROM table_rows tr WHERE tr.project_id = calls.project_id
        AND tr.digest = substr(x.r, instr(x.r, ${rowsEdge}) + ${raw(String(ROWS_EDGE.length))}))
    WHEN substr(x.r, 1, length(x.p)) = x.p AND instr(x.t, ':') > 1 AND instr(x.t, '/') = 0
      THEN (SELECT o.val FROM objects o WHERE o.project_id = calls.project_id AND o.deleted_at IS NULL
        AND o.object_id = substr(x.t, 1, instr(x.t, ':') - 1) AND o.digest = substr(x.t, instr(x.t, ':') + 1))
    END
    FROM (SELECT y.r AS r, y.p AS p, substr(y.r, length(y.p) + 1) AS t
      FROM (SELECT ${ref} AS r, 'weave:///' || calls.project_id || '/object/' AS p) y) x)`;
}
