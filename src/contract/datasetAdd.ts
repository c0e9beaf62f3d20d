/**
 * "Add to dataset" (a Weft addition, docs/datasets.md "Add to dataset"): rows built from calls,
 * threads or annotation queue items through a column mapping, appended to a Dataset as a new
 * version written the way the SDKs write one. `preview` builds the rows and writes nothing.
 */
import { z } from 'zod';
import { JsonObject, ProjectId } from './common.js';
import { ObjectId } from './objects.js';

/** Items one request may turn into rows (each thread reads its turns). */
export const MAX_DATASET_ADD_ITEMS = 1000;
export const MAX_DATASET_ADD_THREADS = 200;
/** Rows a preview answers. */
export const DATASET_PREVIEW_ROWS = 20;

const Ids = (max: number) => z.array(z.string().min(1)).min(1).max(max);

export const DatasetRowSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('calls'), call_ids: Ids(MAX_DATASET_ADD_ITEMS).describe('One row per call, in this order') }),
  z.object({ kind: z.literal('threads'), thread_ids: Ids(MAX_DATASET_ADD_THREADS).describe('One row per thread, in this order') }),
  z.object({
    kind: z.literal('queue_items'),
    queue_id: z.string().min(1),
    item_ids: Ids(MAX_DATASET_ADD_ITEMS).describe('One row per item, in this order, with its reviewers’ answers'),
  }),
]);
export type DatasetRowSource = z.infer<typeof DatasetRowSource>;

export const DatasetColumnMapping = z.object({
  column: z.string().min(1).max(128).describe('Column of the dataset row'),
  path: z
    .string()
    .min(1)
    .max(512)
    .describe('Dotted path into the item: inputs.<key>, output, annotations.<name>, scores.<name>, answers.<question>, ...'),
});
export type DatasetColumnMapping = z.infer<typeof DatasetColumnMapping>;

// POST /datasets/add_from_traces
export const DatasetAddFromTracesReq = z.object({
  project_id: ProjectId,
  dataset: ObjectId.describe('Object id of the dataset: a new version of it, or its first when it does not exist'),
  description: z.string().max(4096).nullish().describe('Only for a new dataset'),
  source: DatasetRowSource,
  mapping: z.array(DatasetColumnMapping).min(1).max(100).nullish().describe('Absent: the default mapping (answered)'),
  preview: z.boolean().nullish().describe('Build the rows and answer the first few; write nothing'),
});
export type DatasetAddFromTracesReq = z.infer<typeof DatasetAddFromTracesReq>;

export const DatasetSourceField = z.object({
  path: z.string(),
  type: z.string().describe('JSON types seen at the path, "string | null"'),
  count: z.number().int().describe('Items that have it'),
});

export const DatasetAddFromTracesRes = z.object({
  mapping: z.array(DatasetColumnMapping).describe('The mapping used'),
  fields: z.array(DatasetSourceField).describe('Paths the items offer, for choosing a mapping'),
  existing: z
    .object({
      digest: z.string(),
      version_index: z.number().int(),
      row_count: z.number().int(),
      columns: z.array(z.string()).describe('Columns of its first rows'),
    })
    .nullable()
    .describe('The version the rows are appended to; null: a new dataset'),
  rows: z.array(JsonObject).describe(`The first ${DATASET_PREVIEW_ROWS} new rows`),
  row_count: z.number().int().describe('Rows added (or that would be)'),
  ref: z.string().nullable().describe('weave:/// ref of the new version; null for a preview'),
  digest: z.string().nullable(),
  version_index: z.number().int().nullable(),
});
export type DatasetAddFromTracesRes = z.infer<typeof DatasetAddFromTracesRes>;
