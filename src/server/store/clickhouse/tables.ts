/**
 * ClickHouse implementation of TablesStore. Rows are stored once per digest; a table is one
 * `table_entries` row per position (so paging is a range of the sort key), and its `tables`
 * row, written last, makes it visible. Every insert is idempotent: a retried or concurrent
 * create of the same table writes the same rows again.
 */
import type { TableRowRecord, TableRowsQuery, TablesStore } from '../Store.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { objectFileRefRows } from './fileRefs.js';

/** Positions per insert block, so a 100,000-row table is not one huge request. */
const ENTRIES_PER_INSERT = 10_000;

const TABLE_EXISTS = 'SELECT 1 AS x FROM tables FINAL WHERE project_id = {p:String} AND digest = {t:String}';

/** A table's live positions joined to their rows; digests without a stored row are left out, like the reference's join. */
const ENTRIES = `FROM (SELECT idx, row_digest FROM table_entries FINAL WHERE project_id = {p:String} AND table_digest = {t:String}) AS e
  INNER JOIN (SELECT digest, val FROM table_rows FINAL WHERE project_id = {p:String}
              AND digest IN (SELECT row_digest FROM table_entries WHERE project_id = {p:String} AND table_digest = {t:String})) AS r
  ON r.digest = e.row_digest`;

export class ClickHouseTablesStore implements TablesStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async createTable(req: {
    projectId: string;
    digest: string;
    rowDigests: string[];
    rows: { digest: string; valJson: string }[];
    createdAt: number;
  }): Promise<void> {
    const unique = new Map(req.rows.map((r) => [r.digest, r.valJson]));
    // The files the rows refer to, before the rows (fileRefs.ts).
    await this.#db.insert(
      'object_file_refs',
      [...unique].flatMap(([digest, val]) => objectFileRefRows(req.projectId, 'row', digest, [val])),
    );
    await this.#db.insert(
      'table_rows',
      [...unique].map(([digest, val]) => ({ project_id: req.projectId, digest, val })),
    );
    if (await this.#exists(req.projectId, req.digest)) return; // the same table (same digest) is stored
    for (let start = 0; start < req.rowDigests.length; start += ENTRIES_PER_INSERT) {
      await this.#db.insert(
        'table_entries',
        req.rowDigests
          .slice(start, start + ENTRIES_PER_INSERT)
          .map((d, i) => ({ project_id: req.projectId, table_digest: req.digest, idx: start + i, row_digest: d })),
      );
    }
    await this.#db.insert('projects', [{ project_id: req.projectId, entity: req.projectId.split('/')[0], created_at: req.createdAt }]);
    await this.#db.insert('tables', [
      { project_id: req.projectId, digest: req.digest, row_count: req.rowDigests.length, created_at: req.createdAt },
    ]);
  }

  async #exists(projectId: string, digest: string): Promise<boolean> {
    return (await this.#db.get(TABLE_EXISTS, { p: projectId, t: digest })) !== null;
  }

  async readRowDigests(req: { projectId: string; digest: string }): Promise<string[] | null> {
    if (!(await this.#exists(req.projectId, req.digest))) return null;
    const rows = await this.#db.all<{ row_digest: string }>(
      'SELECT row_digest FROM table_entries FINAL WHERE project_id = {p:String} AND table_digest = {t:String} ORDER BY idx',
      { p: req.projectId, t: req.digest },
    );
    return rows.map((r) => r.row_digest);
  }

  async *queryRows(q: TableRowsQuery): AsyncIterable<TableRowRecord> {
    if (q.limit != null && q.limit <= 0) return;
    if (!(await this.#exists(q.projectId, q.digest))) return;
    const params: Record<string, unknown> = { p: q.projectId, t: q.digest, offset: q.offset ?? 0 };
    const where = q.rowDigests?.length ? 'WHERE e.row_digest IN {rows:Array(String)}' : '';
    if (where) params.rows = q.rowDigests;
    const order = (q.sortBy ?? []).flatMap((s, i) => {
      params[`path${i}`] = s.path;
      return sortKeys(`path${i}`, s.direction);
    });
    order.push('e.idx ASC');
    params.limit = q.limit ?? 0;
    const limit = q.limit != null ? 'LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : 'LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
    const rows = this.#db.stream<{ digest: string; val: string; idx: number }>(
      `SELECT e.row_digest AS digest, r.val AS val, e.idx AS idx ${ENTRIES} ${where} ORDER BY ${order.join(', ')} ${limit}`,
      params,
    );
    for await (const r of rows) yield { digest: r.digest, valJson: r.val, originalIndex: num(r.idx) };
  }

  async tableStats(req: { projectId: string; digests: string[]; includeStorageSize: boolean }) {
    if (req.digests.length === 0) return [];
    const tables = await this.#db.all<{ digest: string; row_count: number }>(
      'SELECT digest, row_count FROM tables FINAL WHERE project_id = {p:String} AND digest IN {ds:Array(String)} ORDER BY digest',
      { p: req.projectId, ds: req.digests },
    );
    const out = [];
    for (const t of tables) {
      out.push({
        digest: t.digest,
        count: num(t.row_count),
        storageSizeBytes: req.includeStorageSize ? await this.#storageSize(req.projectId, t.digest) : null,
      });
    }
    return out;
  }

  /** Bytes of the rows' JSON, each position counted (a repeated row counts each time). */
  async #storageSize(projectId: string, digest: string): Promise<number> {
    const row = await this.#db.get<{ n: string }>(`SELECT sum(length(r.val)) AS n ${ENTRIES}`, { p: projectId, t: digest });
    return num(row?.n ?? 0);
  }

  async readRows(req: { projectId: string; digests: string[] }): Promise<Map<string, string>> {
    if (req.digests.length === 0) return new Map();
    const rows = await this.#db.all<{ digest: string; val: string }>(
      'SELECT digest, val FROM table_rows FINAL WHERE project_id = {p:String} AND digest IN {ds:Array(String)}',
      { p: req.projectId, ds: req.digests },
    );
    return new Map(rows.map((r) => [r.digest, r.val]));
  }
}

/**
 * SQLite's json_extract order, which the SQLite store sorts by: missing and null first, then
 * numbers, then text (each rank, and the values within it, in the requested direction).
 */
function sortKeys(param: string, direction: 'asc' | 'desc'): string[] {
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const path = `{${param}:Array(String)}`;
  // JSONExtract* take variadic keys, so the path is read with arrayFold over the raw JSON.
  const at = `arrayFold((acc, k) -> JSONExtractRaw(acc, k), ${path}, r.val)`;
  const type = `JSONType(${at})`;
  return [
    `multiIf(${at} = '' OR ${type} = 'Null', 0, ${type} IN ('Int64', 'UInt64', 'Double', 'Bool'), 1, ${type} = 'String', 2, 3) ${dir}`,
    `multiIf(${type} IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(${at}), ${type} = 'Bool', toFloat64(JSONExtractBool(${at})), NULL) ${dir}`,
    `if(${type} = 'String', JSONExtractString(${at}), NULL) ${dir}`,
  ];
}
