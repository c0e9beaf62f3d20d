/** Tables: dataset rows stored once per digest, and tables as ordered lists of them (Store.ts). */
import type { SortDirection } from '../../contract/common.js';

export interface TableRowsQuery {
  projectId: string;
  digest: string;
  /** Only rows with these digests. */
  rowDigests?: string[] | null;
  /** JSON paths (lists of keys) into the row; ties keep table order. Default: table order. */
  sortBy?: { path: string[]; direction: SortDirection }[] | null;
  limit?: number | null;
  offset?: number | null;
}

export interface TableRowRecord {
  digest: string;
  valJson: string;
  /** 0-based position in the table. */
  originalIndex: number;
}

export interface TablesStore {
  /** Stores the rows (once per digest) and the table as its ordered list of row digests. */
  createTable(req: {
    projectId: string;
    digest: string;
    rowDigests: string[];
    rows: { digest: string; valJson: string }[];
    createdAt: number;
  }): Promise<void>;
  /** A table's row digests in order, or null when the table is unknown. */
  readRowDigests(req: { projectId: string; digest: string }): Promise<string[] | null>;
  /** Rows of a table (none when unknown), streamed without holding the table in memory. */
  queryRows(query: TableRowsQuery): AsyncIterable<TableRowRecord>;
  /** Row counts (and summed row sizes) of the known tables among `digests`. */
  tableStats(req: {
    projectId: string;
    digests: string[];
    includeStorageSize: boolean;
  }): Promise<{ digest: string; count: number; storageSizeBytes: number | null }[]>;
  /** Row values by row digest; unknown digests are absent from the map. */
  readRows(req: { projectId: string; digests: string[] }): Promise<Map<string, string>>;
}
