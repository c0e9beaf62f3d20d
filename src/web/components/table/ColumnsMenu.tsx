/**
 * The "Columns" button at the right end of a table's header: a checkbox per column the person
 * may hide. Hiding is a view preference (see columnChoice.ts); a sort by a hidden column, from
 * a link, still applies.
 */
import type { Column } from '@tanstack/react-table';
import { Popover } from '../ui/Popover.js';
import './table.css';

/** A column's name for the chooser: its `meta.label`, its text header, or its id. */
export function columnLabel<T>(column: Column<T, unknown>): string {
  const { header, meta } = column.columnDef;
  return meta?.label ?? (typeof header === 'string' ? header : column.id);
}

/** Props: the table's columns and the setter of one column's visibility. */
export interface ColumnsMenuProps<T> {
  tableLabel: string;
  columns: Column<T, unknown>[];
  setVisible: (id: string, visible: boolean) => void;
}

/** Button and panel; the panel lists every column that can be hidden, in table order. */
export function ColumnsMenu<T>({ tableLabel, columns, setVisible }: ColumnsMenuProps<T>) {
  const choosable = columns.filter((c) => c.getCanHide());
  return (
    <Popover label="⚙" ariaLabel={`Columns of ${tableLabel}`} className="button ghost dt-columns-button" align="end">
      {() => (
        <div className="menu dt-columns-panel">
          <fieldset className="check-group">
            <legend>Columns</legend>
            {choosable.map((c) => (
              <label key={c.id}>
                <input type="checkbox" checked={c.getIsVisible()} onChange={(e) => setVisible(c.id, e.target.checked)} />
                {columnLabel(c)}
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </Popover>
  );
}
