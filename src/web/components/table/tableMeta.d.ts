/** Column meta the shared table understands. */
import '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    align?: 'left' | 'right';
    /** The column's name in the column chooser when its header is not plain text. */
    label?: string;
  }
}
