/** SQLite implementation of CallsStore. */
import { opDisplayName } from '../../domain/calls.js';
import type { CallRecord, CallsQuery, CallsStore, CallWrite } from '../Store.js';
import { callFromRow, type CallRow } from './callConverters.js';
import { compileCount, compileSelect, compileWhere, storageSizeSql, TOTAL_STORAGE_SIZE_SQL } from './callsQuery.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

const START_SQL = `
  INSERT INTO calls (project_id, id, trace_id, parent_id, thread_id, turn_id, op_name, op_base_name,
    display_name, started_at, attributes, inputs, otel_dump, input_refs, wb_user_id, wb_run_id, wb_run_step)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (project_id, id) DO UPDATE SET
    trace_id = excluded.trace_id, parent_id = excluded.parent_id, thread_id = excluded.thread_id,
    turn_id = excluded.turn_id, op_name = excluded.op_name, op_base_name = excluded.op_base_name,
    display_name = excluded.display_name, started_at = excluded.started_at,
    attributes = excluded.attributes, inputs = excluded.inputs, otel_dump = excluded.otel_dump,
    input_refs = excluded.input_refs, wb_user_id = excluded.wb_user_id,
    wb_run_id = excluded.wb_run_id, wb_run_step = excluded.wb_run_step`;

const END_SQL = `
  INSERT INTO calls (project_id, id, ended_at, exception, output, summary, output_refs, wb_run_step_end)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (project_id, id) DO UPDATE SET
    ended_at = excluded.ended_at, exception = excluded.exception, output = excluded.output,
    summary = excluded.summary, output_refs = excluded.output_refs,
    wb_run_step_end = excluded.wb_run_step_end`;

const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';

const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
const refs = (list: string[]): string | null => (list.length ? JSON.stringify(list) : null);


export class SqliteCallsStore implements CallsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async writeCalls(writes: CallWrite[]): Promise<void> {
    const db = this.#db;
    const start = db.prepare(START_SQL);
    const end = db.prepare(END_SQL);
    const project = db.prepare(PROJECT_SQL);
    db.transaction(() => {
      const seen = new Set<string>();
      const now = Date.now() * 1000;
      for (const w of writes) {
        if (!seen.has(w.projectId)) {
          seen.add(w.projectId);
          project.run(w.projectId, w.projectId.split('/')[0], now);
        }
        if (w.kind === 'start') {
          start.run(
            w.projectId, w.id, w.traceId, w.parentId, w.threadId, w.turnId, w.opName,
            opDisplayName(w.opName), w.displayName, w.startedAt, json(w.attributes), json(w.inputs),
            json(w.otelDump), refs(w.inputRefs), w.wbUserId, w.wbRunId, w.wbRunStep,
          );
        } else {
          end.run(
            w.projectId, w.id, w.endedAt, w.exception, json(w.output), json(w.summary),
            refs(w.outputRefs), w.wbRunStepEnd,
          );
        }
      }
    });
  }

  async readCall(req: { projectId: string; id: string; includeStorageSize?: boolean; includeTotalStorageSize?: boolean }): Promise<CallRecord | null> {
    const extra = [
      req.includeStorageSize ? `, ${storageSizeSql()} AS storage_size_bytes` : '',
      req.includeTotalStorageSize ? `, ${TOTAL_STORAGE_SIZE_SQL} AS total_storage_size_bytes` : '',
    ].join('');
    const row = this.#db.get<CallRow>(
      `SELECT *${extra} FROM calls WHERE project_id = ? AND id = ? AND started_at IS NOT NULL AND deleted_at IS NULL`,
      [req.projectId, req.id],
    );
    return row ? callFromRow(row) : null;
  }

  async updateCallDisplayName(req: { projectId: string; id: string; displayName: string }): Promise<void> {
    this.#db.run('UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ?', [
      req.displayName, req.projectId, req.id,
    ]);
  }

  async deleteCalls(req: { projectId: string; ids: string[]; deletedAt: number }): Promise<number> {
    if (req.ids.length === 0) return 0;
    const placeholders = req.ids.map(() => '?').join(', ');
    // Walk parent_id links down from the requested ids; UNION (not ALL) stops on cycles.
    const sql = `
      WITH RECURSIVE doomed(id) AS (
        SELECT id FROM calls WHERE project_id = ? AND id IN (${placeholders})
        UNION
        SELECT c.id FROM calls c JOIN doomed d ON c.project_id = ? AND c.parent_id = d.id
      )
      UPDATE calls SET deleted_at = ?
      WHERE project_id = ? AND deleted_at IS NULL AND started_at IS NOT NULL
        AND id IN (SELECT id FROM doomed)`;
    return this.#db.transaction(
      () => this.#db.run(sql, [req.projectId, ...req.ids, req.projectId, req.deletedAt, req.projectId]).changes,
    );
  }

  async *queryCalls(query: CallsQuery): AsyncIterable<CallRecord> {
    const { sql, params } = compileSelect(query);
    for await (const row of this.#db.stream<CallRow>(sql, params)) yield callFromRow(row);
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
