/**
 * Compiles `sort_by` for calls into an ORDER BY clause (api/core.md §3.2).
 *
 * Contract: null → `started_at ASC, id ASC` (served by the (project_id, started_at) index);
 * `[]` → `id ASC`; otherwise the listed keys, then `id ASC` unless id is among them, so
 * paging is stable. Fields resolve like `$getField` (callsFields.ts): unknown → 422. The SQL
 * text holds only whitelisted expressions; JSON paths are bound parameters.
 *
 * NULLs sort last in both directions, as in ClickHouse, where production sorts (SQLite would
 * put them first when ascending). Columns that are never NULL on a visible call skip the
 * `NULLS LAST` so that SQLite can still walk an index for them.
 */
import type { SortBy } from '../../../contract/common.js';
import { feedbackSortKeys } from './callsFeedback.js';
import { jsonExists, jsonNumber, jsonText, joinSql, raw, resolveCallField, sql } from './callsFields.js';
import type { SqlFragment } from './callsQuery.js';

const DEFAULT_ORDER = 'started_at ASC, id ASC';

export function compileOrderBy(sortBy: SortBy[] | null): SqlFragment {
  if (sortBy === null) return raw(DEFAULT_ORDER);
  const keys = sortBy.flatMap(sortKeys);
  if (!sortBy.some((s) => s.field === 'id')) keys.push(raw('id ASC'));
  return joinSql(keys, ', ');
}

/**
 * A JSON path sorts like the reference's three keys: values that exist first, then by number
 * (non-numbers last), then by text, each but the first in the requested direction.
 */
function sortKeys({ field, direction }: SortBy): SqlFragment[] {
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const f = resolveCallField(field);
  if (f.kind === 'feedback') return feedbackSortKeys(f, dir);
  if (f.kind === 'json') {
    return [
      sql`${jsonExists(f)} DESC`,
      sql`${jsonNumber(f)} ${raw(nullsLast(dir, true))}`,
      sql`${jsonText(f)} ${raw(nullsLast(dir, true))}`,
    ];
  }
  return [sql`${raw(f.sql)} ${raw(nullsLast(dir, f.nullable))}`];
}

/** SQLite already puts NULLs last when descending. */
function nullsLast(dir: 'ASC' | 'DESC', nullable: boolean): string {
  return dir === 'ASC' && nullable ? 'ASC NULLS LAST' : dir;
}
