/**
 * Writing a new version of a Dataset as the Weave SDKs write one (docs/datasets.md "Dataset
 * page"): the rows go to a table (`/table/update` when only some rows change, `/table/create`
 * when every row does), then `/obj/create` of the same value with `rows` pointing at the new
 * table. The server hashes rows, tables and values, so the digests are the ones the SDK gets
 * for the same rows. Shared by the dashboard and the tests that compare it with the SDK.
 */
import type { TableUpdateSpec } from '../contract/tables.js';
import type { WeftClient } from './createClient.js';

/** A dataset row: any JSON object. */
export type DatasetRow = Record<string, unknown>;

/** A change to every row's columns. */
export type ColumnEdit =
  { op: 'add'; name: string; value: unknown } | { op: 'rename'; from: string; to: string } | { op: 'delete'; name: string };

/** Changes to a base table, by position in it. */
export interface DatasetEdits {
  /** Rows replaced in place (a cell edited), by their index in the base table. */
  replace?: readonly { index: number; row: DatasetRow }[];
  /** Indexes of base rows deleted. */
  remove?: readonly number[];
  /** Rows added at the end. */
  append?: readonly DatasetRow[];
  /** Column changes, applied in order to every row (kept, replaced and appended). */
  columns?: readonly ColumnEdit[];
}

/** The npm SDK's `weave.Dataset` value for a new dataset (its `_bases` and field order). */
export function newDatasetVal(name: string, tableDigest: string, projectId: string): Record<string, unknown> {
  return { _type: 'Dataset', _class_name: 'Dataset', _bases: ['Object', 'BaseModel'], name, rows: tableRefOf(projectId, tableDigest) };
}

/** `weave:///<project>/table/<digest>`, the value of a dataset's `rows`. */
export function tableRefOf(projectId: string, digest: string): string {
  return `weave:///${projectId}/table/${digest}`;
}

/** The table digest a dataset value's `rows` names, or null when it names no table. */
export function datasetTableDigest(val: unknown): string | null {
  const rows = typeof val === 'object' && val !== null ? (val as Record<string, unknown>).rows : null;
  if (typeof rows !== 'string') return null;
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/table\/([^/]+)$/.exec(rows);
  return m ? m[1]! : null;
}

/** One row with the column edits applied, keys kept in place (a rename keeps its position). */
export function applyColumnEdits(row: DatasetRow, edits: readonly ColumnEdit[]): DatasetRow {
  let out = row;
  for (const e of edits) {
    if (e.op === 'add') {
      if (!(e.name in out)) out = { ...out, [e.name]: e.value };
    } else if (e.op === 'delete') {
      if (e.name in out) out = Object.fromEntries(Object.entries(out).filter(([k]) => k !== e.name));
    } else if (e.from in out && e.from !== e.to) {
      out = Object.fromEntries(
        Object.entries(out).flatMap(([k, v]): [string, unknown][] => (k === e.from ? [[e.to, v]] : k === e.to ? [] : [[k, v]])),
      );
    }
  }
  return out;
}

/** Whether the edits change nothing. */
export function isEmptyEdits(edits: DatasetEdits): boolean {
  return !edits.replace?.length && !edits.remove?.length && !edits.append?.length && !edits.columns?.length;
}

/** The `/table/update` steps for row edits: replacements (pop then insert), deletions from the end, then appends. */
export function tableUpdates(edits: DatasetEdits): TableUpdateSpec[] {
  const removed = new Set(edits.remove ?? []);
  const updates: TableUpdateSpec[] = [];
  for (const { index, row } of edits.replace ?? []) {
    if (removed.has(index)) continue;
    updates.push({ pop: { index } }, { insert: { index, row } });
  }
  for (const index of [...removed].sort((a, b) => b - a)) updates.push({ pop: { index } });
  for (const row of edits.append ?? []) updates.push({ append: { row } });
  return updates;
}

/** Every row of a table, in order. */
export async function readAllRows(client: WeftClient, projectId: string, digest: string, signal?: AbortSignal): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  for await (const r of client.tableQueryStream({ project_id: projectId, digest }, { signal })) rows.push(r.val as DatasetRow);
  return rows;
}

/**
 * Writes the edited table and answers its digest: `/table/update` for row edits (the server
 * reuses the untouched rows), `/table/create` with every row when a column changes.
 */
export async function writeEditedTable(client: WeftClient, projectId: string, baseDigest: string, edits: DatasetEdits): Promise<string> {
  if (!edits.columns?.length) {
    return (await client.tableUpdate({ project_id: projectId, base_digest: baseDigest, updates: tableUpdates(edits) })).digest;
  }
  const base = await readAllRows(client, projectId, baseDigest);
  const removed = new Set(edits.remove ?? []);
  const replaced = new Map((edits.replace ?? []).map((r) => [r.index, r.row]));
  const rows = [...base.flatMap((row, i) => (removed.has(i) ? [] : [replaced.get(i) ?? row])), ...(edits.append ?? [])].map((row) =>
    applyColumnEdits(row, edits.columns!),
  );
  return (await client.tableCreate({ table: { project_id: projectId, rows } })).digest;
}

/** Publishes `baseVal` again with `rows` pointing at `tableDigest`: every other field as it was. */
export async function publishDatasetVersion(
  client: WeftClient,
  {
    projectId,
    objectId,
    baseVal,
    tableDigest,
  }: { projectId: string; objectId: string; baseVal: Record<string, unknown>; tableDigest: string },
): Promise<{ digest: string; tableDigest: string }> {
  const val = { ...baseVal, rows: tableRefOf(projectId, tableDigest) };
  const { digest } = await client.objCreate({ obj: { project_id: projectId, object_id: objectId, val } });
  return { digest, tableDigest };
}

/** Saves edits to a dataset version as a new version. */
export async function saveDatasetEdits(
  client: WeftClient,
  { projectId, objectId, baseVal, edits }: { projectId: string; objectId: string; baseVal: Record<string, unknown>; edits: DatasetEdits },
): Promise<{ digest: string; tableDigest: string }> {
  const baseDigest = datasetTableDigest(baseVal);
  if (baseDigest === null) throw new Error(`${objectId} has no rows table to edit`);
  const tableDigest = await writeEditedTable(client, projectId, baseDigest, edits);
  return publishDatasetVersion(client, { projectId, objectId, baseVal, tableDigest });
}

/** Saves `rows` as a dataset's next version (an import), or as a new dataset when `baseVal` is null. */
export async function saveDatasetRows(
  client: WeftClient,
  {
    projectId,
    objectId,
    baseVal,
    rows,
  }: { projectId: string; objectId: string; baseVal: Record<string, unknown> | null; rows: DatasetRow[] },
): Promise<{ digest: string; tableDigest: string }> {
  const { digest: tableDigest } = await client.tableCreate({ table: { project_id: projectId, rows } });
  return publishDatasetVersion(client, {
    projectId,
    objectId,
    baseVal: baseVal ?? newDatasetVal(objectId, tableDigest, projectId),
    tableDigest,
  });
}

/**
 * The ref of a version of the Evaluation `evaluationRef` whose `dataset` is `datasetRef`: the
 * Evaluation itself when it names that version already, else the Evaluation published again
 * with only `dataset` changed, as the SDKs would publish it ("Run evaluation on this version").
 */
export async function evaluationOnDataset(
  client: WeftClient,
  projectId: string,
  evaluationRef: string,
  datasetRef: string,
): Promise<string> {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/object\/([^:/]+):([^/]+)$/.exec(evaluationRef);
  if (!m) throw new Error(`${evaluationRef} is not an object version ref`);
  const objectId = decodeURIComponent(m[1]!);
  const { obj } = await client.objRead({ project_id: projectId, object_id: objectId, digest: m[2]! });
  const val = obj.val as Record<string, unknown>;
  if (val.dataset === datasetRef) return evaluationRef;
  const { digest } = await client.objCreate({ obj: { project_id: projectId, object_id: objectId, val: { ...val, dataset: datasetRef } } });
  return `weave:///${projectId}/object/${m[1]!}:${digest}`;
}
