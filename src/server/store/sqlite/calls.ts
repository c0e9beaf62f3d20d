/** SQLite implementation of CallsStore. */
import { opDisplayName } from '../../core/opNames.js';
import type {
  CallEndWrite,
  CallRecord,
  CallsQuery,
  CallsStore,
  CallStartWrite,
  CallWrite,
  ChildInput,
  ReadCallRequest,
  TraceSpanRecord,
} from '../Store.js';
import { inputKey, loadedColumns } from '../query/index.js';
import { callFromRow, type CallRow } from '../query/callRow.js';
import { STORED_BYTES_SQL, storageSizeSql, TOTAL_STORAGE_SIZE_SQL } from './callsColumnsSql.js';
import { compileCount, compileSelect, compileWhere } from './callsQuery.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { QUEUE_CALL_SQL, type CallSearchIndexer } from './callSearch.js';
import { recordFileRefs } from './fileRefs.js';
import { refreshStatsRollup } from './statsRollup.js';
import { refreshDirtyThreads } from './threads.js';
import { payloadSql } from './history/historyBlobs.js';

const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'op_base_name',
  'display_name',
  'started_at',
  'attributes',
  'inputs',
  'inputs_chars',
  'otel_dump',
  'input_refs',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
];
const END_COLUMNS = ['ended_at', 'exception', 'output', 'output_chars', 'summary', 'output_refs', 'wb_run_step_end'];

/** Columns a part sent again without them keeps, as ClickHouse's CoalescingMergeTree does (docs/clickhouse.md, call parts). */
const KEPT_WHEN_NULL = new Set(['display_name', 'exception']);

/** An upsert of the given parts' columns: the other part's columns, if stored, are kept. */
function upsertSql(columns: string[]): string {
  const all = ['project_id', 'id', ...columns];
  const set = columns.map((c) =>
    // A rename may arrive before the start (the SDK sends it at once, starts in batches), and a
    // re-sent end may leave out its exception: neither erases what is stored.
    KEPT_WHEN_NULL.has(c) ? `${c} = coalesce(excluded.${c}, calls.${c})` : `${c} = excluded.${c}`,
  );
  return `INSERT INTO calls (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})
    ON CONFLICT (project_id, id) DO UPDATE SET ${set.join(', ')}`;
}

// RETURNING the row's rowid, which keys its documents in the substring index (callSearch.ts).
const START_SQL = `${upsertSql(START_COLUMNS)} RETURNING rowid`;
const END_SQL = `${upsertSql(END_COLUMNS)} RETURNING rowid`;
/** Start and end of one call in the same batch (the common case) become one row write. */
const FULL_SQL = `${upsertSql([...START_COLUMNS, ...END_COLUMNS])} RETURNING rowid`;

const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';
/** The call readCall and readCallWithin answer: started (an early end alone is not a call yet) and not deleted. */
const LIVE_CALL_BY_ID = 'project_id = ? AND id = ? AND started_at IS NOT NULL AND deleted_at IS NULL';

/**
 * Folds what call writes left for the derived tables (thread statistics, the stats rollup)
 * before the transaction commits; once per group commit when the writer batches requests.
 * The retention sweep folds through it too (retention.ts).
 */
export const refreshDerived = (db: SqliteDatabase): void =>
  db.refreshAtCommit('calls', () => {
    refreshDirtyThreads(db);
    refreshStatsRollup(db);
  });

/**
 * A point read's SELECT list: the requested columns (a score's prediction, read to copy its inputs
 * and output, loads 10 of the 24 columns: ~3 µs less SQL, and fewer JSON texts parsed), or all.
 */
/**
 * A trace's spans for its outline (traceSpans). Every column here is in calls_trace_tree
 * (migration 29), so the rows and their payloads are never read.
 */
export const TRACE_SPANS_SQL = `SELECT id, parent_id AS parentId, op_name AS opName, display_name AS displayName,
    started_at AS startedAt, ended_at AS endedAt, exception IS NOT NULL AS error, summary AS summaryJson
  FROM calls WHERE project_id = ? AND trace_id = ? AND +started_at IS NOT NULL AND deleted_at IS NULL
  ORDER BY +started_at ASC, id ASC LIMIT ?`;

/** With the columns that say whether inputs and output hold markers (inflatedRow). */
export const HISTORY_COLUMNS = ', inputs_chars, output_chars';
const columnsSql = (columns: readonly string[] | null | undefined): string =>
  columns?.length ? loadedColumns(columns).join(', ') + HISTORY_COLUMNS : '*';

/**
 * readCallWithin's SQL, made once per list of columns: the main thread runs it at most of an
 * evaluation logger's requests, and a statement is found by its text, which a new string has
 * to hash whole (~700 characters) where a remembered one has its hash already.
 */
const readWithinSql = (columns: readonly string[] | null | undefined): string => {
  const loaded = columns?.length ? loadedColumns(columns) : null;
  let sql = loaded ? READ_WITHIN_SQL.get(loaded) : READ_WITHIN_ALL;
  if (sql === undefined) READ_WITHIN_SQL.set(loaded!, (sql = readWithin(loaded!.join(', ') + HISTORY_COLUMNS)));
  return sql;
};
const readWithin = (selected: string) =>
  `SELECT ${selected}, ${STORED_BYTES_SQL} AS stored_bytes FROM calls WHERE ${LIVE_CALL_BY_ID} AND ${STORED_BYTES_SQL} <= ?`;
const READ_WITHIN_ALL = readWithin('*');
/** By loadedColumns' list, which it remembers (and so hands out the same list for the same columns). */
const READ_WITHIN_SQL = new WeakMap<readonly string[], string>();

const refs = (list: string[]): string | null => (list.length ? JSON.stringify(list) : null);

/** A payload as stored: its text with repeated content taken out (history/), and the original's length when it was. */
type Stored = { text: string; chars: number } | null;

const startValues = (w: CallStartWrite, inputs: Stored) => [
  w.traceId,
  w.parentId,
  w.threadId,
  w.turnId,
  w.opName,
  opDisplayName(w.opName),
  w.displayName,
  w.startedAt,
  w.attributesJson,
  inputs ? inputs.text : w.inputsJson,
  inputs ? inputs.chars : null,
  w.otelDumpJson,
  refs(w.inputRefs),
  w.wbUserId,
  w.wbRunId,
  w.wbRunStep,
];
const endValues = (w: CallEndWrite, output: Stored) => [
  w.endedAt,
  w.exception,
  output ? output.text : w.outputJson,
  output ? output.chars : null,
  w.summaryJson,
  refs(w.outputRefs),
  w.wbRunStepEnd,
];

/** A row read from `calls` with its markers put back (docs/history-storage.md). */
type StoredRow = CallRow & { inputs_chars?: number | null; output_chars?: number | null };

export function inflatedRow(db: SqliteDatabase, row: StoredRow): CallRow {
  if (row.inputs_chars != null && row.inputs != null) row.inputs = db.history.inflate(row.project_id, row.inputs);
  if (row.output_chars != null && row.output != null) row.output = db.history.inflate(row.project_id, row.output);
  return row;
}

/**
 * deleteCalls' statement, every step driven by an index (docs/security/writer.md): `CROSS JOIN`
 * keeps each queued id outside, so a step is one calls_by_parent lookup, not a scan of the
 * project per descendant (20,000 descendants took 46 s); the UPDATE looks each doomed id up by
 * primary key (`+` keeps calls_by_start from driving a scan of the whole project).
 */
export const DELETE_SQL = `
  WITH RECURSIVE doomed(id) AS (
    SELECT id FROM calls WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))
    UNION
    SELECT c.id FROM doomed d CROSS JOIN calls c ON c.project_id = ? AND c.parent_id = d.id
  )
  UPDATE calls SET deleted_at = ?
  WHERE project_id = ? AND id IN (SELECT id FROM doomed) AND +deleted_at IS NULL AND +started_at IS NOT NULL`;

export class SqliteCallsStore implements CallsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async writeCalls(writes: CallWrite[]): Promise<void> {
    const db = this.#db;
    const statements = { start: db.prepare(START_SQL), end: db.prepare(END_SQL), full: db.prepare(FULL_SQL) };
    const project = db.prepare(PROJECT_SQL);
    const queue = db.prepare(QUEUE_CALL_SQL);
    let queued = 0;
    // Applying the last start and the last end of each id gives the same row as applying the
    // writes one by one, since each part only sets its own columns, once a later part without
    // a name or an exception keeps the earlier one's (KEPT_WHEN_NULL).
    const parts = new Map<string, { start?: CallStartWrite; end?: CallEndWrite }>();
    for (const w of writes) {
      const key = `${w.projectId}\u0000${w.id}`;
      const entry = parts.get(key) ?? {};
      if (w.kind === 'start') entry.start = entry.start && w.displayName === null ? { ...w, displayName: entry.start.displayName } : w;
      else entry.end = entry.end && w.exception === null ? { ...w, exception: entry.end.exception } : w;
      parts.set(key, entry);
    }
    db.transaction(() => {
      const now = Date.now() * 1000;
      for (const projectId of new Set(writes.map((w) => w.projectId))) {
        project.run(projectId, projectId.split('/')[0], now);
      }
      const prepare = (sql: string) => db.prepare(sql);
      for (const { start, end } of parts.values()) {
        const head = [(start ?? end)!.projectId, (start ?? end)!.id];
        const inputs = start ? db.history.deflate(prepare, head[0]!, start.inputsJson, 'inputs') : null;
        // An agent turn's reply is stored apart for the next turn's history (docs/history-storage.md "Replies").
        const historyInInputs = () => (start ? inputs !== null : db.history.inputsStoredOnce(prepare, head[0]!, head[1]!));
        const output = end ? db.history.deflate(prepare, head[0]!, end.outputJson, { output: { historyInInputs } }) : null;
        const { rowid } = (
          start && end
            ? statements.full.get(...head, ...startValues(start, inputs), ...endValues(end, output))
            : start
              ? statements.start.get(...head, ...startValues(start, inputs))
              : statements.end.get(...head, ...endValues(end!, output))
        ) as { rowid: number };
        // Indexed behind the writes (callSearch.ts).
        queued += queue.run(rowid).changes;
        recordFileRefs(db, head[0]!, 'call', head[1]!, [start?.inputsJson ?? null, end?.outputJson ?? null]);
      }
      refreshDerived(db);
    });
    this.searchIndexer?.wrote(queued);
  }

  /** Indexes the substring search's queue when the writer is idle (SqliteStore sets it). */
  searchIndexer: CallSearchIndexer | null = null;

  async readCall(req: ReadCallRequest): Promise<CallRecord | null> {
    const extra = [
      req.includeStorageSize ? `, ${storageSizeSql()} AS storage_size_bytes` : '',
      req.includeTotalStorageSize ? `, ${TOTAL_STORAGE_SIZE_SQL} AS total_storage_size_bytes` : '',
    ].join('');
    const row = this.#db.get<CallRow>(`SELECT ${columnsSql(req.columns)}${extra} FROM calls WHERE ${LIVE_CALL_BY_ID}`, [
      req.projectId,
      req.id,
    ]);
    return row ? callFromRow(inflatedRow(this.#db, row)) : null;
  }

  /**
   * readCall, held to `maxBytes` of stored text (STORED_BYTES_SQL): the row is loaded only when
   * it holds no more, so a larger one costs only the measuring (threads/mainThreadBudget.ts).
   * Answers the call (null when there is none) with its bytes, or 'too large'. SQLite only;
   * synchronous.
   */
  readCallWithin(
    req: Pick<ReadCallRequest, 'projectId' | 'id' | 'columns'>,
    maxBytes: number,
  ): { call: CallRecord | null; bytes: number } | 'too large' {
    const row = this.#db.get<CallRow & { stored_bytes: number }>(readWithinSql(req.columns), [req.projectId, req.id, maxBytes]);
    if (row) return { call: callFromRow(inflatedRow(this.#db, row)), bytes: row.stored_bytes };
    // None within the bound: none at all (the 404 path), or one too large (measured, not read).
    return this.storedSize(req.projectId, { ids: [req.id] }).rows ? 'too large' : { call: null, bytes: 0 };
  }

  /**
   * How many rows, and how many bytes of text in all (STORED_BYTES_SQL), the live calls with these
   * ids (or these parents) hold, measured without reading them: what a main-thread request may read is
   * bounded by it (threads/mainThreadBudget.ts). SQLite only; synchronous.
   */
  storedSize(projectId: string, by: { ids: string[] } | { parentIds: string[] }): { rows: number; bytes: number } {
    const column = 'ids' in by ? 'id' : 'parent_id';
    const list = 'ids' in by ? by.ids : by.parentIds;
    // One id (nearly every probe) is looked up directly: json_each costs a third more.
    const [match, param] = list.length === 1 ? ['= ?', list[0]] : ['IN (SELECT value FROM json_each(?))', JSON.stringify(list)];
    // `+started_at`: not an index term, or SQLite may walk calls_by_start through the whole
    // project instead of looking the ids up (measured: 10 ms a probe at 40k calls).
    const row = this.#db.get<{ rows: number; bytes: number | null }>(
      `SELECT count(*) AS rows, sum(${STORED_BYTES_SQL}) AS bytes FROM calls
       WHERE project_id = ? AND ${column} ${match} AND +started_at IS NOT NULL AND deleted_at IS NULL`,
      [projectId, param],
    );
    return { rows: row?.rows ?? 0, bytes: row?.bytes ?? 0 };
  }

  /**
   * queryCalls read whole at once from the writer's connection, for a query measured small
   * first (storedSize; threads/mainThreadBudget.ts). `queryCalls` streams from a read
   * connection, whose page cache SQLite drops whenever another connection has committed: on the
   * main thread, between two commits of the writer, its pages came from the OS again each time
   * (a prediction's finish read its 4 rows in ~50 µs; the writer's warm cache serves them in
   * ~20). SQLite only; synchronous.
   */
  queryCallsNow(query: CallsQuery): CallRecord[] {
    const { sql, params } = compileSelect(query);
    return this.#db.all<CallRow>(sql, params).map((row) => callFromRow(inflatedRow(this.#db, row)));
  }

  async updateCallDisplayName(req: { projectId: string; id: string; displayName: string }): Promise<void> {
    // An upsert, so a rename that overtakes its start is kept, like an early end.
    this.#db.run(upsertSql(['display_name']), [req.projectId, req.id, req.displayName]);
  }

  async deleteCalls(req: { projectId: string; ids: string[]; deletedAt: number }): Promise<number> {
    if (req.ids.length === 0) return 0;
    // Walk parent_id links down from the requested ids; UNION (not ALL) stops on cycles.
    return this.#db.transaction(() => {
      const deleted = this.#db.run(DELETE_SQL, [
        req.projectId,
        JSON.stringify(req.ids),
        req.projectId,
        req.deletedAt,
        req.projectId,
      ]).changes;
      refreshDerived(this.#db);
      return deleted;
    });
  }

  async *queryCalls(query: CallsQuery): AsyncIterable<CallRecord> {
    const { sql, params } = compileSelect(query);
    for await (const row of this.#db.stream<CallRow>(sql, params)) yield callFromRow(inflatedRow(this.#db, row));
  }

  async childInputs(req: { projectId: string; parentIds: string[]; key: string }): Promise<ChildInput[]> {
    if (!req.parentIds.length) return [];
    const where = compileWhere({ projectId: req.projectId, filter: { parent_ids: req.parentIds } });
    // `->` answers the input's JSON text (a string input keeps its quotes), null when absent.
    const sql = `SELECT id, parent_id, op_name, ${payloadSql('inputs')} -> ? AS input FROM calls WHERE ${where.sql} ORDER BY +started_at ASC, id ASC`;
    const out: ChildInput[] = [];
    for await (const row of this.#db.stream<ChildInput>(sql, [`$.${inputKey(req.key)}`, ...where.params])) out.push(row);
    return out;
  }

  async traceSpans(req: { projectId: string; traceId: string; limit: number }): Promise<TraceSpanRecord[]> {
    const out: TraceSpanRecord[] = [];
    for await (const row of this.#db.stream<TraceSpanRecord>(TRACE_SPANS_SQL, [req.projectId, req.traceId, req.limit], 2000)) {
      row.error = Boolean(row.error);
      out.push(row);
    }
    return out;
  }

  async countCalls(query: CallsQuery): Promise<number> {
    const { sql, params } = compileCount(query);
    return this.#db.get<{ n: number }>(sql, params)!.n;
  }

  async totalStorageSize(query: CallsQuery): Promise<number> {
    const where = compileWhere({ ...query, filter: { ...query.filter, trace_roots_only: true } });
    const sql = `SELECT coalesce(sum(${TOTAL_STORAGE_SIZE_SQL}), 0) AS n FROM calls WHERE ${where.sql}`;
    return this.#db.get<{ n: number }>(sql, where.params)!.n;
  }
}
