/**
 * A new version of a Dataset with rows appended, written as the SDKs write one: a table of
 * every row (the existing rows by digest, then the new ones) and the dataset object pointing
 * at it. An existing dataset keeps its stored value with only `rows` changed, as the reference
 * UI does, so the version's digest is the one the SDK that published it would get publishing
 * those rows; a new dataset is written as `/v2/.../datasets` writes one.
 * Table and object go in one write batch (docs/datasets.md "Add to dataset").
 */
import type { Store } from '../../store/Store.js';
import type { ObjectRecord } from '../../store/ObjectsStore.js';
import { ConflictError } from '../../errors.js';
import { WritePlan, type Writer } from '../calls/writePlan.js';
import { isLosslessObject, parseLossless, type LosslessObject, type LosslessValue } from '../objects/losslessJson.js';
import { formatObjectRef, parseRef } from '../objects/refs.js';
import { applyCreated } from '../objects/v2ObjectCreate.js';
import { datasetVal } from '../objects/v2ObjectValues.js';

/** Rows of the existing version read to name its columns. */
const COLUMN_SAMPLE_ROWS = 50;

export interface DatasetBase {
  record: ObjectRecord;
  val: LosslessObject;
  tableDigest: string;
  rowDigests: string[];
}

/** The live latest version of `objectId` and its rows' digests; null when there is none (or it was deleted). */
export async function readDatasetBase(store: Store, req: { projectId: string; objectId: string }): Promise<DatasetBase | null> {
  const record = await store.objects.readObject({ projectId: req.projectId, objectId: req.objectId, version: { latest: true } });
  if (!record || record.deletedAt !== null) return null;
  const what = `${req.objectId} is a ${record.baseObjectClass ?? record.kind}, not a Dataset: choose another name`;
  if (record.baseObjectClass !== 'Dataset' || !record.valJson) throw new ConflictError(what);
  const val = parseLossless(record.valJson);
  const rows = isLosslessObject(val) ? val.get('rows') : undefined;
  let tableDigest: string | null = null;
  try {
    const ref = typeof rows === 'string' ? parseRef(rows) : null;
    if (ref?.kind === 'table' && ref.projectId === req.projectId) tableDigest = ref.digest;
  } catch {
    // not a ref: refused below
  }
  if (!isLosslessObject(val) || tableDigest === null) throw new ConflictError(`${req.objectId}'s rows are not a table of ${req.projectId}`);
  const rowDigests = await store.tables.readRowDigests({ projectId: req.projectId, digest: tableDigest });
  if (!rowDigests) throw new ConflictError(`${req.objectId}'s table ${tableDigest} is missing`);
  return { record, val, tableDigest, rowDigests };
}

/** Columns of the base's first rows, first seen first. */
export async function baseColumns(store: Store, projectId: string, base: DatasetBase): Promise<string[]> {
  const columns = new Set<string>();
  const rows = store.tables.queryRows({ projectId, digest: base.tableDigest, limit: COLUMN_SAMPLE_ROWS });
  for await (const row of rows) {
    const val = parseLossless(row.valJson);
    if (isLosslessObject(val)) for (const key of val.keys()) columns.add(key);
  }
  return [...columns];
}

/** Writes the next version: `base` with `rows` appended, or a new dataset named `objectId`. */
export async function appendDatasetRows(
  store: Store,
  writer: Writer,
  req: { objectId: string; description: string | null; base: DatasetBase | null; rows: LosslessValue[] },
) {
  const plan = new WritePlan(writer);
  let val: LosslessObject;
  if (req.base) {
    const tableDigest = plan.appendedTable(req.base.rowDigests, req.rows);
    val = new Map(req.base.val).set('rows', `weave:///${writer.projectId}/table/${tableDigest}`);
  } else {
    const tableRef = `weave:///${writer.projectId}/table/${plan.table(req.rows)}`;
    val = datasetVal({ name: req.objectId, description: req.description, tableRef });
  }
  plan.object(req.objectId, val);
  const created = await applyCreated(store, plan);
  return {
    ref: formatObjectRef({ kind: 'object', projectId: writer.projectId, name: created.object_id, digest: created.digest }),
    digest: created.digest,
    version_index: created.version_index,
  };
}
