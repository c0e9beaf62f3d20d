/**
 * Table rows through react-query: pages of rows (server-paged and server-sorted), the row
 * count, and single rows by digest. Tables are immutable and content-addressed, so nothing
 * here goes stale; pages scrolled past are dropped after a minute.
 */
import { queryOptions } from '@tanstack/react-query';
import type { TableRowSchema } from '../../../../contract/tables.js';
import { api } from '../../../lib/api.js';

/** One row as the server answers it: digest, value, position in the table. */
export type TableRow = TableRowSchema;

/** A server-side sort of a table: a dot path into the rows. */
export interface TableSort {
  field: string;
  direction: 'asc' | 'desc';
}

/** Rows per page; one page is one `/table/query`. */
export const TABLE_PAGE_SIZE = 100;

/** Query keys for tables. */
export const tableKeys = {
  all: ['tables'] as const,
  table: (projectId: string, digest: string) => [...tableKeys.all, projectId, digest] as const,
  count: (projectId: string, digest: string) => [...tableKeys.table(projectId, digest), 'count'] as const,
  page: ({ projectId, digest, sort, page }: { projectId: string; digest: string; sort: TableSort | null; page: number }) =>
    [...tableKeys.table(projectId, digest), 'page', sort, page] as const,
  row: (projectId: string, digest: string, rowDigest: string) => [...tableKeys.table(projectId, digest), 'row', rowDigest] as const,
};

/** One page of rows in table order, or sorted on the server. */
export function tablePageQueryOptions({
  projectId,
  digest,
  sort,
  page,
}: {
  projectId: string;
  digest: string;
  sort: TableSort | null;
  page: number;
}) {
  return queryOptions({
    queryKey: tableKeys.page({ projectId, digest, sort, page }),
    queryFn: async ({ signal }) =>
      (
        await api.tableQuery(
          { project_id: projectId, digest, limit: TABLE_PAGE_SIZE, offset: page * TABLE_PAGE_SIZE, sort_by: sort ? [sort] : null },
          { signal },
        )
      ).rows,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

/** How many rows the table has. */
export function tableCountQueryOptions({ projectId, digest }: { projectId: string; digest: string }) {
  return queryOptions({
    queryKey: tableKeys.count(projectId, digest),
    queryFn: async ({ signal }) => (await api.tableQueryStats({ project_id: projectId, digest }, { signal })).count,
    staleTime: Infinity,
  });
}

/** One row by its digest (a ref's `id/<row>` edge), or null when the table has no such row. */
export function tableRowQueryOptions({ projectId, digest, rowDigest }: { projectId: string; digest: string; rowDigest: string }) {
  return queryOptions({
    queryKey: tableKeys.row(projectId, digest, rowDigest),
    queryFn: async ({ signal }) =>
      (await api.tableQuery({ project_id: projectId, digest, filter: { row_digests: [rowDigest] }, limit: 1 }, { signal })).rows[0] ?? null,
    staleTime: Infinity,
  });
}
