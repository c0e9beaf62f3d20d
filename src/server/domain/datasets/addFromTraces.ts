/**
 * "Add to dataset" (docs/datasets.md "Add to dataset"): the selected calls, threads or queue
 * items read once, mapped to rows on the server (so thousands of selected items need no
 * round trips), and appended to a dataset as a new version; a preview does all but the write.
 */
import { DATASET_PREVIEW_ROWS, type DatasetAddFromTracesReq, type DatasetAddFromTracesRes } from '../../../contract/datasetAdd.js';
import type { Store } from '../../store/Store.js';
import type { Writer } from '../calls/writePlan.js';
import { fromPlain } from '../objects/losslessJson.js';
import { appendDatasetRows, baseColumns, readDatasetBase } from './datasetAppend.js';
import { sourceDocs } from './itemSources.js';
import { checkMapping, defaultMapping, mapRows, sourceFields } from './rowMapping.js';

export async function addFromTraces(store: Store, writer: Writer, req: DatasetAddFromTracesReq): Promise<DatasetAddFromTracesRes> {
  const projectId = req.project_id;
  if (req.mapping) checkMapping(req.source.kind, req.mapping);
  const base = await readDatasetBase(store, { projectId, objectId: req.dataset });
  const docs = await sourceDocs(store, projectId, req.source);
  const mapping = req.mapping ?? defaultMapping(req.source.kind, docs);
  const rows = mapRows(docs, mapping);
  const answer: DatasetAddFromTracesRes = {
    mapping,
    fields: sourceFields(docs),
    existing: base && {
      digest: base.record.digest,
      version_index: base.record.versionIndex,
      row_count: base.rowDigests.length,
      columns: await baseColumns(store, projectId, base),
    },
    rows: rows.slice(0, DATASET_PREVIEW_ROWS),
    row_count: rows.length,
    ref: null,
    digest: null,
    version_index: null,
  };
  if (req.preview) return answer;
  const written = await appendDatasetRows(store, writer, {
    objectId: req.dataset,
    description: req.description ?? null,
    base,
    rows: rows.map(fromPlain),
  });
  return { ...answer, ...written };
}
