/**
 * Plans `sort_by` for calls (docs/api/core.md §3.2) into sort keys (ir.ts `SortKey`).
 *
 * Contract: null → `started_at` ascending, then `id` ascending (the storage order of a
 * project's calls); `[]` → `id` ascending; otherwise the listed keys, then `id` ascending unless
 * id is among them, so paging is stable. Fields resolve like `$getField` (callFields.ts):
 * unknown → 422.
 *
 * NULLs sort last in both directions, as in ClickHouse, where production sorts. A JSON path
 * sorts like the reference's three keys: values that exist first, then by number (non-numbers
 * last), then by text, each but the first in the requested direction.
 */
import type { SortBy } from '../../../contract/common.js';
import { feedbackSortKeys } from './callsFeedback.js';
import { columnField } from './callFields.js';
import type { CallField, SortKey } from './ir.js';

const ascending = (column: 'started_at' | 'id'): SortKey => ({
  value: { k: 'field', field: columnField(column) },
  direction: 'asc',
  nullable: false,
});

export function planOrder(sortBy: SortBy[] | null, resolve: (path: string) => CallField): SortKey[] {
  if (sortBy === null) return [ascending('started_at'), ascending('id')];
  const keys = sortBy.flatMap((s) => sortKeys(s, resolve));
  if (!sortBy.some((s) => s.field === 'id')) keys.push(ascending('id'));
  return keys;
}

function sortKeys({ field, direction }: SortBy, resolve: (path: string) => CallField): SortKey[] {
  const f = resolve(field);
  if (f.kind === 'feedback') return feedbackSortKeys(f, direction);
  if (f.kind === 'json') {
    return [
      { value: { k: 'jsonExists', field: f }, direction: 'desc', nullable: false },
      { value: { k: 'json', field: f, as: 'number' }, direction, nullable: true },
      { value: { k: 'json', field: f, as: 'text' }, direction, nullable: true },
    ];
  }
  return [{ value: { k: 'field', field: f }, direction, nullable: f.nullable }];
}
