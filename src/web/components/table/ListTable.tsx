/**
 * A short list of a project's things (judges, models, monitors) as a plain table: a spinner
 * while it loads, the error when it failed (never "none"), "No <things> yet." when there are
 * none, else the rows. Lists that page or
 * sort use DataTable instead.
 */
import type { ReactNode } from 'react';
import { ErrorState } from '../ui/ErrorState.js';
import { Spinner } from '../ui/Spinner.js';
import './table.css';

export interface ListTableProps<T> {
  /** The rows; undefined while loading. */
  items: T[] | undefined;
  pending: boolean;
  /** The failed request, if it failed; `onRetry` offers to repeat it. */
  error?: unknown;
  onRetry?: () => void;
  /** The things listed, plural and lower case ("judges"): "Loading judges", "No judges yet." */
  noun: string;
  /** The table's accessible name. */
  label: string;
  /** The header cells (`<th>`s). */
  head: ReactNode;
  /** One `<tr>` per item. */
  row: (item: T) => ReactNode;
}

export function ListTable<T>({ items, pending, error, onRetry, noun, label, head, row }: ListTableProps<T>) {
  if (error) return <ErrorState error={error} onRetry={onRetry} compact />;
  if (pending) return <Spinner showLabel label={`Loading ${noun}`} />;
  if (!items?.length) return <p className="muted">No {noun} yet.</p>;
  // Wider than a phone, the table scrolls sideways in its own box rather than the page.
  return (
    <div className="list-table-scroll">
      <table className="simple-table" aria-label={label}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
