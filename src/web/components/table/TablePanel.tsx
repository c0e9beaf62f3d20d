/**
 * The box a page's main table fills: it takes the height left under the page header and toolbar
 * and lets the DataTable inside scroll on its own. Tables of every feature share it (it used to
 * be the calls table's class, borrowed by the others).
 */
import type { ReactNode } from 'react';
import './table.css';

export function TablePanel({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={className ? `table-panel ${className}` : 'table-panel'}>{children}</div>;
}
