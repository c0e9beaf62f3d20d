/** Compiles `sort_by` for calls into an ORDER BY clause (minimal version). */
import type { SortBy } from '../../../contract/common.js';
import type { SqlFragment } from './callsQuery.js';

export function compileOrderBy(sortBy: SortBy[] | null): SqlFragment {
  if (sortBy === null) return { sql: 'started_at ASC, id ASC', params: [] };
  const parts = sortBy.map((s) => `${s.field} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
  if (!sortBy.some((s) => s.field === 'id')) parts.push('id ASC');
  return { sql: parts.join(', '), params: [] };
}
