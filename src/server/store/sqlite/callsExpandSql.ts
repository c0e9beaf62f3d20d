/**
 * Reading *through* refs (`expand_columns`, query/ir.ts `JsonField.via`) in SQLite SQL.
 *
 * Contract: `referencedValue(ref)` yields the JSON text of what the ref stored at `ref` points
 * to, or NULL: an object version of the call's project, or, for a dataset-row ref
 * (`.../object/<dataset>:<digest>/attr/rows/id/<row digest>`), that table row. It is a
 * correlated subquery over `calls`, so every comparison, `$convert` and sort key reads it like a
 * column. The lookup uses the objects primary key (project_id, object_id, digest) and the
 * table_rows primary key (project_id, digest), once per candidate call; the ref text is cut
 * apart with substr/instr, so no value ever enters the SQL text.
 */
import type { JsonAt } from './jsonSql.js';
import { raw, sql, type SqlFragment } from './sql.js';

const ROWS_EDGE = '/attr/rows/id/';

/**
 * The ref is read once per evaluation, in a FROM subquery (`x.r`; `x.t` is what follows the
 * project's object prefix `x.p`), not once per use: each use would re-parse the call's JSON column.
 */
export function referencedValue(ref: JsonAt): SqlFragment {
  const text = sql`json_extract(${ref.source}, ${{ sql: '?', params: [ref.path] }})`;
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
      FROM (SELECT ${text} AS r, 'weave:///' || calls.project_id || '/object/' AS p) y) x)`;
}
