/**
 * Files: content-addressed blobs (op source code, images, audio) that objects point at by
 * digest (docs/api/core.md §3.6; evaluation-and-more.md §4 "files/query_stats").
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

// POST /file/create (multipart/form-data)
export const FileCreateReq = z.object({
  project_id: ProjectId,
  file: z.instanceof(Blob).describe('The file part; its filename is stored'),
  expected_digest: z.string().nullish().describe('409 when the content digest differs'),
});
export const FileCreateRes = z.object({ digest: z.string() });

// POST /file/content
export const FileContentReadReq = z.object({ project_id: ProjectId, digest: z.string() });
/** Documents the raw answer: the file's bytes as application/octet-stream. */
export const FileContentReadRes = z.string().describe('The file bytes (application/octet-stream)');

// POST /files/query_stats
export const FilesStatsReq = z.object({ project_id: ProjectId });
export const FilesStatsRes = z.object({ total_size_bytes: z.number().int() });

// POST /project/stats
export const ProjectStatsReq = z.object({
  project_id: ProjectId,
  include_trace_storage_size: z.boolean().nullish().default(true),
  include_object_storage_size: z.boolean().nullish().default(true),
  include_table_storage_size: z.boolean().nullish().default(true),
  include_file_storage_size: z.boolean().nullish().default(true),
});
export const ProjectStatsRes = z.object({
  trace_storage_size_bytes: z.number().int().describe('Bytes of the live calls: attributes, inputs, output, summary, exception'),
  objects_storage_size_bytes: z.number().int().describe('Bytes of the live object versions'),
  tables_storage_size_bytes: z.number().int().describe('Bytes of the stored table rows'),
  files_storage_size_bytes: z.number().int().describe('Bytes of the stored files'),
});
