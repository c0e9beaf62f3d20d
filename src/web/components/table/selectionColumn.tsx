/** A checkbox column for row selection; its header clears the selection. */
import type { ColumnDef } from '@tanstack/react-table';

/** `noun` names the rows in the header's label ("calls"); `describe` names one row for its checkbox. */
export function selectionColumn<Row>(noun: string, describe: (row: Row) => string): ColumnDef<Row> {
  return {
    id: 'select',
    size: 36,
    enableSorting: false,
    enableHiding: false,
    header: ({ table }) => {
      const count = Object.keys(table.getState().rowSelection).length;
      return (
        <input
          type="checkbox"
          aria-label={count ? `Clear selection of ${count} ${noun}` : `No ${noun} selected`}
          checked={count > 0}
          disabled={count === 0}
          onChange={() => table.resetRowSelection()}
        />
      );
    },
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select ${describe(row.original)}`}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };
}
