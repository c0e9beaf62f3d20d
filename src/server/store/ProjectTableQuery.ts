/**
 * A query over one project's rows of a flat table (`/feedback/query`, `/cost/query`): the
 * request's query language, minus the wire names. Its meaning is planned once in
 * store/query/tablePlan.ts and printed per backend (sqlite/tableQuery.ts, clickhouse/tableQuery.ts).
 */
import type { Query, SortBy } from '../../contract/common.js';

export interface ProjectTableQuery {
  projectId: string;
  /** Columns or `<json column>.<path>`; null means the store's default fields. */
  fields?: string[] | null;
  query?: Query | null;
  sortBy?: SortBy[] | null;
  limit?: number | null;
  offset?: number | null;
}

/** The wire fields of such a request, as the contract names them. */
interface TableQueryWire {
  project_id: string;
  fields?: string[] | null;
  query?: Query | null;
  sort_by?: SortBy[] | null;
  limit?: number | null;
  offset?: number | null;
}

/** The store query of a `/…/query` request. */
export const toProjectTableQuery = (req: TableQueryWire): ProjectTableQuery => ({
  projectId: req.project_id,
  fields: req.fields,
  query: req.query,
  sortBy: req.sort_by,
  limit: req.limit,
  offset: req.offset,
});
