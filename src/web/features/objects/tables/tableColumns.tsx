/**
 * Columns of a table's rows: the row's position, then one column per row key (read from the
 * first page, since rows are schemaless). Key columns are made on first use and cached, so
 * column identity is stable; their id is the server sort field (a top-level key).
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { NumberCell } from '../../../components/table/NumberCell.js';
import { previewValue, ValueCell } from '../../../components/table/ValueCell.js';
import { formatInteger } from '../../../lib/format.js';
import type { TableRow } from './tableQueries.js';

const col = createColumnHelper<TableRow>();

/** A table rows column. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TableColumnDef = ColumnDef<TableRow, any>;

/** Columns shown at most; wider rows keep the rest in the row panel. */
const MAX_COLUMNS = 40;

const field = (row: TableRow, key: string): unknown =>
  typeof row.val === 'object' && row.val !== null ? (row.val as Record<string, unknown>)[key] : undefined;

/** The row's position in the table (not sortable: it is the table's own order). */
export const indexColumn: TableColumnDef = col.accessor('original_index', {
  id: '#',
  header: '#',
  size: 64,
  enableSorting: false,
  meta: { align: 'right' },
  cell: ({ getValue }) => <NumberCell value={getValue()} format={formatInteger} />,
});

const cache = new Map<string, TableColumnDef>();

/** The column of one row key, `size` px wide. Keys with dots cannot be sorted (they read as paths). */
export function keyColumn(key: string, size: number): TableColumnDef {
  const id = `${key}\u0000${size}`;
  let def = cache.get(id);
  if (!def) {
    def = col.accessor((r) => field(r, key), {
      id: key,
      header: key,
      size,
      enableSorting: !key.includes('.'),
      cell: ({ row }) => <ValueCell value={field(row.original, key)} />,
    });
    cache.set(id, def);
  }
  return def;
}

/** Keys of the sample rows in order of first appearance, with a width that fits their values. */
export function columnsFromRows(rows: readonly TableRow[]): TableColumnDef[] {
  const widths = new Map<string, number>();
  for (const row of rows) {
    if (typeof row.val !== 'object' || row.val === null || Array.isArray(row.val)) continue;
    for (const [key, value] of Object.entries(row.val)) {
      if (!widths.has(key) && widths.size >= MAX_COLUMNS) continue;
      const chars = Math.max(key.length + 2, previewValue(value, 60).length);
      widths.set(key, Math.max(widths.get(key) ?? 0, chars));
    }
  }
  return [
    indexColumn,
    ...[...widths].map(([key, chars]) => keyColumn(key, Math.round(Math.min(380, Math.max(90, chars * 8 + 36)) / 10) * 10)),
  ];
}
