/**
 * Table logic above the store (docs/api/core.md §3.4): row and table digests, applying updates to
 * a row-digest list, validating sort paths, and the wire form of rows.
 */
import type { TableQueryReq, TableRowSchema } from '../../../contract/tables.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { bytesDigest, tableDigest } from './digests.js';
import { isLosslessObject, losslessAt, toCompactJson, toPythonJson, type LosslessValue } from './losslessJson.js';

interface HashedRow {
  digest: string;
  valJson: string;
}

/** A row's digest (Python `json.dumps(row, sort_keys=True)`) and its stored text; 400 unless an object. */
export function hashRow(row: LosslessValue | undefined): HashedRow {
  if (!isLosslessObject(row)) throw new BadRequestError('All rows must be dictionaries');
  return { digest: bytesDigest(toPythonJson(row)), valJson: toCompactJson(row) };
}

function checkExpected(expected: string | null | undefined, actual: string, rowCount: number): void {
  if (expected && expected !== actual) {
    throw new ConflictError(`Digest mismatch for table (${rowCount} rows): expected ${expected}, computed ${actual}`);
  }
}

/** table/create: stores the rows once per digest and the table as their ordered digests. */
export async function createTable(
  store: Store,
  req: { projectId: string; rows: LosslessValue[]; expectedDigest?: string | null; now: number },
) {
  const rows = req.rows.map(hashRow);
  const rowDigests = rows.map((r) => r.digest);
  const digest = tableDigest(rowDigests);
  checkExpected(req.expectedDigest, digest, rows.length);
  await store.tables.createTable({ projectId: req.projectId, digest, rowDigests, rows, createdAt: req.now });
  return { digest, row_digests: rowDigests };
}

/** table/create_from_digests: the row digests are not checked for existence (as the reference). */
export async function createTableFromDigests(
  store: Store,
  req: { projectId: string; rowDigests: string[]; expectedDigest?: string | null; now: number },
) {
  const digest = tableDigest(req.rowDigests);
  checkExpected(req.expectedDigest, digest, req.rowDigests.length);
  await store.tables.createTable({ projectId: req.projectId, digest, rowDigests: req.rowDigests, rows: [], createdAt: req.now });
  return { digest };
}

/**
 * table/update: applies append / pop / insert in order to the base table's row digests and
 * stores the result as a new table. `updates` are the request's update specs, read losslessly.
 */
export async function updateTable(store: Store, req: { projectId: string; baseDigest: string; updates: LosslessValue[]; now: number }) {
  const digests = await store.tables.readRowDigests({ projectId: req.projectId, digest: req.baseDigest });
  if (!digests) throw new NotFoundError(`Table ${req.baseDigest} not found`);
  const newRows = new Map<string, HashedRow>();
  const updated: string[] = [];
  const add = (row: LosslessValue | undefined) => {
    const hashed = hashRow(row);
    newRows.set(hashed.digest, hashed);
    return hashed.digest;
  };
  for (const spec of req.updates) {
    if (losslessAt(spec, ['append']) !== undefined) {
      const digest = add(losslessAt(spec, ['append', 'row']));
      digests.push(digest);
      updated.push(digest);
    } else if (losslessAt(spec, ['pop']) !== undefined) {
      const index = indexOf(losslessAt(spec, ['pop', 'index']), digests.length - 1);
      updated.push(digests.splice(index, 1)[0]!);
    } else {
      const index = indexOf(losslessAt(spec, ['insert', 'index']), digests.length);
      const digest = add(losslessAt(spec, ['insert', 'row']));
      digests.splice(index, 0, digest);
      updated.push(digest);
    }
  }
  const digest = tableDigest(digests);
  await store.tables.createTable({
    projectId: req.projectId,
    digest,
    rowDigests: digests,
    rows: [...newRows.values()],
    createdAt: req.now,
  });
  return { digest, updated_row_digests: updated };
}

/** An update's index, which must lie in [0, max]. */
function indexOf(value: LosslessValue | undefined, max: number): number {
  if (typeof value !== 'number' || value < 0 || value > max) throw new BadRequestError('Index out of range');
  return value;
}

/** Dotted sort fields become key paths; empty, leading, trailing or doubled dots are a 400. */
function sortPaths(sortBy: TableQueryReq['sort_by']) {
  return (sortBy ?? []).map(({ field, direction }) => {
    if (!field.trim()) throw new BadRequestError('Sort field cannot be empty');
    const path = field.split('.');
    if (path.some((part) => !part.trim())) {
      throw new BadRequestError(`Invalid sort field '${field}': field names cannot start/end with dots or contain consecutive dots`);
    }
    // SQLite JSON paths quote each key; a double quote inside a key cannot be expressed.
    if (field.includes('"')) throw new BadRequestError(`Invalid sort field '${field}': field names cannot contain '"'`);
    return { path, direction };
  });
}

/** table/query and table/query_stream: rows in table order or sorted, as they are read. */
export async function* queryTable(store: Store, req: TableQueryReq): AsyncIterable<TableRowSchema> {
  const rows = store.tables.queryRows({
    projectId: req.project_id,
    digest: req.digest,
    rowDigests: req.filter?.row_digests,
    sortBy: sortPaths(req.sort_by),
    limit: req.limit,
    offset: req.offset,
  });
  for await (const r of rows) yield { digest: r.digest, val: JSON.parse(r.valJson), original_index: r.originalIndex };
}
