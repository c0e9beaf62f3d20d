/** SQLite implementation of FeedbackStore. */
import type { Feedback } from '../../../contract/feedback.js';
import type { FeedbackQuery, FeedbackRefsRow, FeedbackStore, FeedbackWindow, FeedbackWrite } from '../FeedbackStore.js';
import { FEEDBACK_COLUMNS as COLUMNS, feedbackFromRow, scorerColumnValues, scorerJson, type FeedbackRow } from '../query/feedbackRow.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { countTable, deleteTableIds, queryTable } from './tableQuery.js';

const INSERT_SQL = `INSERT OR REPLACE INTO feedback (${Object.keys(COLUMNS).join(', ')})
  VALUES (${Object.keys(COLUMNS)
    .map(() => '?')
    .join(', ')})`;

const values = (r: FeedbackWrite) => [
  r.id,
  r.projectId,
  r.weaveRef,
  r.wbUserId,
  r.creator,
  r.createdAt,
  r.feedbackType,
  r.payloadJson,
  r.annotationRef,
  r.runnableRef,
  r.callRef,
  r.triggerRef,
  r.queueId,
  ...Object.values(scorerColumnValues(r.scorer)),
];

/**
 * Inserts the rows on the writer. It opens no transaction: callers run it inside theirs, so
 * feedback can be written atomically with other rows (annotation-queue submits).
 */
export function insertFeedback(db: SqliteDatabase, rows: FeedbackWrite[]): void {
  const insert = db.prepare(INSERT_SQL);
  for (const row of rows) insert.run(...values(row));
}

/** Ids per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

export class SqliteFeedbackStore implements FeedbackStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async createFeedback(rows: FeedbackWrite[]): Promise<void> {
    this.#db.transaction(() => insertFeedback(this.#db, rows));
  }

  async replaceFeedback(req: { projectId: string; feedbackId: string; row: FeedbackWrite }): Promise<boolean> {
    return this.#db.transaction(() => {
      const deleted = this.#db.run('DELETE FROM feedback WHERE project_id = ? AND id = ?', [req.projectId, req.feedbackId]);
      if (deleted.changes === 0) return false;
      this.#db.run(INSERT_SQL, values(req.row));
      return true;
    });
  }

  async queryFeedback(q: FeedbackQuery): Promise<Record<string, unknown>[]> {
    return queryTable(this.#db, {
      table: 'feedback',
      columns: COLUMNS,
      scope: { sql: 'project_id = ?', params: [q.projectId] },
      fields: q.fields,
      query: q.query,
      sortBy: q.sortBy,
      // The reference leaves the order open; creation order is the useful default.
      tieBreak: 'created_at ASC, rowid ASC',
      limit: q.limit,
      offset: q.offset,
    });
  }

  async countFeedback(q: FeedbackQuery): Promise<number> {
    return countTable(this.#db, {
      table: 'feedback',
      columns: COLUMNS,
      scope: { sql: 'project_id = ?', params: [q.projectId] },
      query: q.query,
    });
  }

  async purgeFeedback(req: { projectId: string; ids: string[] }): Promise<number> {
    return deleteTableIds(this.#db, { table: 'feedback', scope: { sql: 'project_id = ?', params: [req.projectId] }, ids: req.ids });
  }

  async feedbackForRefs(req: { projectId: string; weaveRefs: string[] }): Promise<Feedback[]> {
    const out: Feedback[] = [];
    for (let i = 0; i < req.weaveRefs.length; i += CHUNK) {
      const refs = req.weaveRefs.slice(i, i + CHUNK);
      const sql = `SELECT * FROM feedback WHERE project_id = ? AND weave_ref IN (${refs.map(() => '?').join(', ')})
        ORDER BY created_at, rowid`;
      out.push(...this.#db.all<FeedbackRow>(sql, [req.projectId, ...refs]).map(feedbackFromRow));
    }
    return out;
  }

  async *feedbackRefsInWindow(req: { projectId: string; start: number; end: number }): AsyncIterable<FeedbackRefsRow> {
    const sql = `SELECT created_at, feedback_type, weave_ref, runnable_ref, trigger_ref, scorer_tags, scorer_ratings,
        span_agent_name, span_agent_version, span_status_code FROM feedback
      WHERE project_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at`;
    type Row = Omit<FeedbackRow, 'id' | 'project_id' | 'payload'>;
    for await (const r of this.#db.stream<Row>(sql, [req.projectId, req.start, req.end])) {
      yield {
        createdAt: r.created_at,
        feedbackType: r.feedback_type,
        weaveRef: r.weave_ref,
        runnableRef: r.runnable_ref,
        triggerRef: r.trigger_ref,
        scorerTags: scorerJson('scorer_tags', r.scorer_tags),
        scorerRatings: scorerJson('scorer_ratings', r.scorer_ratings),
        spanAgentName: r.span_agent_name,
        spanAgentVersion: r.span_agent_version,
        spanStatusCode: r.span_status_code,
      };
    }
  }

  async *feedbackPayloads(w: FeedbackWindow): AsyncIterable<{ createdAt: number; payload: unknown }> {
    const clauses = ['project_id = ?', 'created_at >= ?', 'created_at < ?'];
    const params: unknown[] = [w.projectId, w.start, w.end];
    if (w.feedbackType) {
      clauses.push('feedback_type = ?');
      params.push(w.feedbackType);
    }
    if (w.triggerRef?.endsWith(':*')) {
      const prefix = w.triggerRef.slice(0, -1);
      clauses.push('substr(trigger_ref, 1, ?) = ?');
      params.push(prefix.length, prefix);
    } else if (w.triggerRef) {
      clauses.push('trigger_ref = ?');
      params.push(w.triggerRef);
    }
    const order = w.newest === undefined ? 'created_at ASC LIMIT -1' : 'created_at DESC LIMIT ?';
    if (w.newest !== undefined) params.push(w.newest);
    const sql = `SELECT created_at, payload FROM feedback WHERE ${clauses.join(' AND ')} ORDER BY ${order}`;
    for await (const row of this.#db.stream<{ created_at: number; payload: string }>(sql, params)) {
      yield { createdAt: row.created_at, payload: JSON.parse(row.payload) };
    }
  }
}
