/**
 * Tables: immutable, content-addressed lists of rows (JSON objects), which datasets point at
 * (docs/api/core.md §3.4).
 */
import { z } from 'zod';
import { Limit, Offset, ProjectId, SortBy } from './common.js';

const Row = z.record(z.string(), z.unknown()).describe('A row: any JSON object');

// POST /table/create
export const TableCreateReq = z.object({
  table: z.object({
    project_id: ProjectId,
    rows: z.array(Row),
    expected_digest: z.string().nullish().describe('409 when the computed digest differs'),
  }),
});
export const TableCreateRes = z.object({ digest: z.string(), row_digests: z.array(z.string()) });

// POST /table/create_from_digests
export const TableCreateFromDigestsReq = z.object({
  project_id: ProjectId,
  row_digests: z.array(z.string()).describe('Not checked for existence'),
  expected_digest: z.string().nullish(),
});
export const TableCreateFromDigestsRes = z.object({ digest: z.string() });

// POST /table/update
export const TableUpdateSpec = z.union([
  z.object({ append: z.object({ row: Row }) }),
  z.object({ pop: z.object({ index: z.number().int() }) }),
  z.object({ insert: z.object({ index: z.number().int(), row: Row }) }),
]);
export type TableUpdateSpec = z.infer<typeof TableUpdateSpec>;
export const TableUpdateReq = z.object({
  project_id: ProjectId,
  base_digest: z.string(),
  updates: z.array(TableUpdateSpec),
});
export const TableUpdateRes = z.object({
  digest: z.string(),
  updated_row_digests: z.array(z.string()).describe('Per update: the appended/inserted or popped row digest'),
});

// POST /table/query and /table/query_stream
export const TableRowFilter = z.object({ row_digests: z.array(z.string()).nullish() });
export const TableQueryReq = z.object({
  project_id: ProjectId,
  digest: z.string(),
  filter: TableRowFilter.nullish(),
  limit: Limit,
  offset: Offset,
  sort_by: z.array(SortBy).nullish().describe('Fields are dotted paths into the row'),
});
export type TableQueryReq = z.infer<typeof TableQueryReq>;
export const TableRowSchema = z.object({
  digest: z.string(),
  val: z.unknown(),
  original_index: z.number().int().nullable().describe('0-based position in the table'),
});
export type TableRowSchema = z.infer<typeof TableRowSchema>;
export const TableQueryRes = z.object({ rows: z.array(TableRowSchema) });

// POST /table/query_stats
export const TableQueryStatsReq = z.object({ project_id: ProjectId, digest: z.string() });
export const TableQueryStatsRes = z.object({ count: z.number().int() });

// POST /table/query_stats_batch
export const TableQueryStatsBatchReq = z.object({
  project_id: ProjectId,
  digests: z.array(z.string()).nullish(),
  include_storage_size: z.boolean().nullish(),
});
export const TableStatsRow = z.object({
  count: z.number().int(),
  digest: z.string(),
  storage_size_bytes: z.number().int().nullable(),
});
export const TableQueryStatsBatchRes = z.object({ tables: z.array(TableStatsRow) });
