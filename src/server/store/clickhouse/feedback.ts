/**
 * ClickHouse implementation of FeedbackStore over `feedback`, a ReplacingMergeTree(version,
 * is_deleted) keyed by (project_id, id) and read with FINAL, so answers never depend on when
 * merges run (migrations/v04FeedbackPrices.ts).
 *
 * Where ClickHouse is weaker than SQLite, and what is promised instead:
 * - Writes are versioned rows, not transactions. A create is one INSERT block (one part, all or
 *   nothing); a retried create of the same id is the same row again and converges; of two writes
 *   of one id the newer version wins (the writer's clock in µs, strictly increasing per process:
 *   across replicas, clocks decide, as in the reference's ReplacingMergeTree).
 * - `replaceFeedback` reads that the old id is live, then inserts its tombstone and the new row
 *   as one block (atomic: nobody sees both or neither). The existence check and the insert are
 *   not atomic together: two replicas replacing the same id at the same moment can both answer
 *   true and both new rows stay (SQLite lets exactly one win).
 * - `purgeFeedback` counts the live ids it finds, then inserts a tombstone for each; two purges
 *   racing may both count the same row. A purged id written again later is live again, as in SQLite.
 */
import type { Feedback } from '../../../contract/feedback.js';
import type { FeedbackQuery, FeedbackRefsRow, FeedbackStore, FeedbackWindow, FeedbackWrite } from '../FeedbackStore.js';
import {
  FEEDBACK_COLUMNS,
  feedbackFromRow,
  scorerColumnValues,
  scorerJson,
  type FeedbackRow as NeutralFeedbackRow,
} from '../query/feedbackRow.js';
import { planTableQuery, planTableWhere, tableRowToWire } from '../query/index.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { printTableSelect, printTableWhere } from './tableQuery.js';

const COLUMN_LIST = Object.keys(FEEDBACK_COLUMNS).join(', ');

/** A stored row as ClickHouse returns it (Int64 quoted). */
type FeedbackRow = Omit<NeutralFeedbackRow, 'created_at'> & { created_at: string | number };

/**
 * The rows to insert for feedback writes (one version each, in order, so a later write of a
 * repeated id wins). Exported for the stores that write feedback along with their own rows.
 */
export function feedbackInsertRows(rows: FeedbackWrite[], version: number): object[] {
  return rows.map((r) => ({
    project_id: r.projectId,
    id: r.id,
    weave_ref: r.weaveRef,
    wb_user_id: r.wbUserId,
    creator: r.creator,
    created_at: r.createdAt,
    feedback_type: r.feedbackType,
    payload: r.payloadJson,
    annotation_ref: r.annotationRef,
    runnable_ref: r.runnableRef,
    call_ref: r.callRef,
    trigger_ref: r.triggerRef,
    queue_id: r.queueId,
    ...scorerColumnValues(r.scorer),
    version,
    is_deleted: 0,
  }));
}

/**
 * Refuses rows the table cannot hold (what SQLite's NOT NULL constraints refuse), before anything
 * is written: Store.apply checks a whole batch with this first, so a refused row leaves nothing.
 */
export function checkFeedbackRows(rows: FeedbackWrite[]): void {
  for (const r of rows) {
    for (const [key, value] of Object.entries({
      projectId: r.projectId,
      id: r.id,
      weaveRef: r.weaveRef,
      feedbackType: r.feedbackType,
      payloadJson: r.payloadJson,
    })) {
      if (typeof value !== 'string') throw new Error(`Feedback ${String(r.id)} has no ${key}`);
    }
    if (!Number.isFinite(r.createdAt)) throw new Error(`Feedback ${r.id} has no created_at`);
  }
}

/** A tombstone of a stored row: its values kept (every column is non-null where the table says so). */
const tombstone = (r: FeedbackRow, version: number) => ({ ...r, created_at: num(r.created_at), version, is_deleted: 1 });

const fromRow = (r: FeedbackRow): Feedback => feedbackFromRow({ ...r, created_at: num(r.created_at) });

const SCOPE = 'project_id = {p:String}';

export class ClickHouseFeedbackStore implements FeedbackStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async createFeedback(rows: FeedbackWrite[]): Promise<void> {
    checkFeedbackRows(rows);
    if (rows.length === 0) return;
    // Ids may be the client's, so a create can follow a purge of the same id.
    const version = await this.#db.versionAfter('feedback', 'project_id IN {ps:Array(String)} AND id IN {ids:Array(String)}', {
      ps: [...new Set(rows.map((r) => r.projectId))],
      ids: rows.map((r) => r.id),
    });
    await this.#db.insert('feedback', feedbackInsertRows(rows, version));
  }

  async replaceFeedback(req: { projectId: string; feedbackId: string; row: FeedbackWrite }): Promise<boolean> {
    checkFeedbackRows([req.row]);
    const old = await this.#live(req.projectId, [req.feedbackId]);
    if (old.length === 0) return false;
    const version = await this.#version(req.projectId, [req.feedbackId, req.row.id]);
    const gone = req.row.id === req.feedbackId && req.row.projectId === req.projectId ? [] : old.map((r) => tombstone(r, version));
    await this.#db.insert('feedback', [...gone, ...feedbackInsertRows([req.row], version)]);
    return true;
  }

  async queryFeedback(q: FeedbackQuery): Promise<Record<string, unknown>[]> {
    const plan = planTableQuery(FEEDBACK_COLUMNS, q);
    // The reference leaves the order open; creation order is the useful default (ties by id here,
    // by insertion on SQLite).
    const { sql, params } = printTableSelect({
      from: 'feedback FINAL',
      scope: SCOPE,
      params: { p: q.projectId },
      plan,
      tieBreak: ['created_at ASC', 'id ASC'],
    });
    const rows = await this.#db.all<Record<string, unknown>>(sql, params);
    return rows.map((row) =>
      tableRowToWire(
        FEEDBACK_COLUMNS,
        plan.fields,
        plan.fields.map((_, i) => row[`f${i}`]),
      ),
    );
  }

  async countFeedback(q: FeedbackQuery): Promise<number> {
    const where = q.query ? planTableWhere(FEEDBACK_COLUMNS, q.query) : null;
    const printed = printTableWhere({ scope: SCOPE, params: { p: q.projectId }, plan: { where } });
    return num(
      (await this.#db.get<{ n: string }>(`SELECT count() AS n FROM feedback FINAL WHERE ${printed.where}`, printed.params))?.n ?? 0,
    );
  }

  async purgeFeedback(req: { projectId: string; ids: string[] }): Promise<number> {
    if (req.ids.length === 0) return 0;
    const live = await this.#live(req.projectId, [...new Set(req.ids)]);
    if (live.length === 0) return 0;
    const version = await this.#version(
      req.projectId,
      live.map((r) => r.id),
    );
    await this.#db.insert(
      'feedback',
      live.map((r) => tombstone(r, version)),
    );
    return live.length;
  }

  async feedbackForRefs(req: { projectId: string; weaveRefs: string[] }): Promise<Feedback[]> {
    if (req.weaveRefs.length === 0) return [];
    const rows = await this.#db.all<FeedbackRow>(
      `SELECT ${COLUMN_LIST} FROM feedback FINAL WHERE ${SCOPE} AND weave_ref IN {refs:Array(String)} ORDER BY created_at, id`,
      { p: req.projectId, refs: req.weaveRefs },
    );
    return rows.map(fromRow);
  }

  async *feedbackRefsInWindow(req: { projectId: string; start: number; end: number }): AsyncIterable<FeedbackRefsRow> {
    const sql = `SELECT created_at, feedback_type, weave_ref, runnable_ref, trigger_ref, scorer_tags, scorer_ratings,
        span_agent_name, span_agent_version, span_status_code FROM feedback FINAL
      WHERE ${SCOPE} AND created_at >= {start:Int64} AND created_at < {end:Int64} ORDER BY created_at, id`;
    type Row = Omit<FeedbackRow, 'id' | 'project_id' | 'payload'>;
    for await (const r of this.#db.stream<Row>(sql, { p: req.projectId, start: req.start, end: req.end })) {
      yield {
        createdAt: num(r.created_at),
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
    const clauses = [SCOPE, 'created_at >= {start:Int64}', 'created_at < {end:Int64}'];
    const params: Record<string, unknown> = { p: w.projectId, start: w.start, end: w.end };
    if (w.feedbackType) {
      clauses.push('feedback_type = {type:String}');
      params.type = w.feedbackType;
    }
    if (w.triggerRef?.endsWith(':*')) {
      clauses.push("startsWith(ifNull(trigger_ref, ''), {trigger:String})");
      params.trigger = w.triggerRef.slice(0, -1);
    } else if (w.triggerRef) {
      clauses.push('trigger_ref = {trigger:String}');
      params.trigger = w.triggerRef;
    }
    let order = 'created_at ASC, id ASC';
    if (w.newest !== undefined) {
      order = 'created_at DESC, id DESC LIMIT {newest:UInt64}';
      params.newest = w.newest;
    }
    const sql = `SELECT created_at, payload FROM feedback FINAL WHERE ${clauses.join(' AND ')} ORDER BY ${order}`;
    for await (const row of this.#db.stream<{ created_at: string; payload: string }>(sql, params)) {
      yield { createdAt: num(row.created_at), payload: JSON.parse(row.payload) };
    }
  }

  /** Above every stored version of the listed ids (a superset of the rows written is fine). */
  #version(projectId: string, ids: string[]): Promise<number> {
    return this.#db.versionAfter('feedback', 'project_id = {p:String} AND id IN {ids:Array(String)}', { p: projectId, ids });
  }

  /** The live rows of the listed ids. */
  async #live(projectId: string, ids: string[]): Promise<FeedbackRow[]> {
    return this.#db.all<FeedbackRow>(`SELECT ${COLUMN_LIST} FROM feedback FINAL WHERE ${SCOPE} AND id IN {ids:Array(String)}`, {
      p: projectId,
      ids,
    });
  }
}
