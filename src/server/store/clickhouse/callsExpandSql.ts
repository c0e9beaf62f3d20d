/**
 * Reading *through* refs (`expand_columns`, query/ir.ts `JsonField.via`) in ClickHouse SQL,
 * mirroring sqlite/callsExpandSql.ts.
 *
 * Contract: `referencedValue(ref)` yields the JSON text of what the ref text `ref` points to, or
 * NULL: a live object version of the call's project (`weave:///<project>/object/<id>:<digest>`),
 * or for a dataset-row ref (`…/attr/rows/id/<row digest>`) that table row of the project.
 *
 * ClickHouse has no correlated subqueries on the minimum server version, so the project's
 * objects and table rows are read once per statement into a map (a scalar subquery, computed once
 * however often it is used) and each call looks its ref up there. The key says which table and
 * where SQLite's lookup would cut the ref apart: `o:<object id>\0<digest>` at the first ':' after
 * the project prefix, `r:<digest>` after the first rows edge. No value enters the SQL text.
 */
import { jsonText, withValue } from './jsonSql.js';

const ROWS_EDGE = '/attr/rows/id/';

const VALUES = `(SELECT mapFromArrays(groupArray(k), groupArray(v)) FROM (
    SELECT concat('o:', object_id, char(0), digest) AS k, val AS v FROM object_versions FINAL
    WHERE project_id = {p:String} AND deleted_at IS NULL
    UNION ALL
    SELECT concat('r:', digest) AS k, val AS v FROM table_rows FINAL WHERE project_id = {p:String}))`;

/** The map key of a ref text (NULL-safe: a value that is no such ref gets '', which no key is). */
function refKey(ref: string): string {
  const prefix = "concat('weave:///', project_id, '/object/')";
  const rest = `substring(${ref}, length(${prefix}) + 1)`;
  const colon = `position(${rest}, ':')`;
  return `ifNull(multiIf(
    NOT startsWith(${ref}, ${prefix}), '',
    position(${ref}, '${ROWS_EDGE}') > 0, concat('r:', substring(${ref}, position(${ref}, '${ROWS_EDGE}') + ${ROWS_EDGE.length})),
    ${colon} > 1 AND position(${rest}, '/') = 0, concat('o:', substring(${rest}, 1, ${colon} - 1), char(0), substring(${rest}, ${colon} + 1)),
    ''), '')`;
}

/** The JSON text the ref at `raw` (raw JSON text, jsonSql.ts) points to, or NULL; no stored value is ''. */
export function referencedValue(raw: string): string {
  return withValue(raw, (x) => `nullIf(${VALUES}[${refKey(jsonText(x))}], '')`);
}
