/**
 * ClickHouse implementation of RetentionStore. Expiring a call writes the same rows a
 * `/calls/delete` does (deleted_at on the call and its turn), so every read, the stats and the
 * threads included, stops showing it at once, and adds `expire_at`, which the tables' TTL
 * (migration 15) turns into the rows' removal at the engine's next merge. A TTL merge of a
 * part holding only the expiry row could drop it before it meets the call's other rows; the
 * call would then show again, and the next sweep, finding it, expires it again
 * (docs/operations/retention.md).
 */
import type { FeedbackStore } from '../FeedbackStore.js';
import type { ExpiredCalls, ProjectRetention, RetentionRule, RetentionScope, RetentionStore } from '../RetentionStore.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { expireUnreferencedFiles } from './fileRefs.js';
import { STATS_HOUR } from './stats.js';

interface RuleRow {
  scope: RetentionScope;
  key: string;
  last_days: number;
  last_at: string | number;
  last_by: string;
}

const fromRow = (r: RuleRow): RetentionRule => ({
  scope: r.scope,
  key: r.key,
  days: Number(r.last_days),
  updatedAt: num(r.last_at),
  updatedBy: r.last_by,
});

/** The latest row per rule, removed ones (days 0) left out (aliases unlike the columns, which they would shadow). */
const RULES_SQL = `SELECT scope, key, argMax(days, updated_at) AS last_days, max(updated_at) AS last_at,
    argMax(updated_by, updated_at) AS last_by
  FROM retention_rules GROUP BY scope, key HAVING last_days > 0`;

/**
 * When the engine may drop an expired call's rows: a day after the later of the sweep's "now"
 * and the engine's own clock (which TTL reads; a row inserted already past its TTL is dropped at
 * once, before it could hide the call). The day lets ordinary merges bring the expiry row together
 * with the call's other rows first, so the TTL removes the merged call, not the expiry row alone.
 */
export const EXPIRY_GRACE_MICROS = 86_400_000_000;
const expiryOf = (now: number): number => Math.max(now, Date.now() * 1000) + EXPIRY_GRACE_MICROS;

export class ClickHouseRetentionStore implements RetentionStore {
  readonly #db: ClickHouseDatabase;
  readonly #feedback: () => FeedbackStore;
  constructor(db: ClickHouseDatabase, feedback: () => FeedbackStore) {
    this.#db = db;
    this.#feedback = feedback;
  }

  async getRule(req: { scope: RetentionScope; key: string }): Promise<RetentionRule | null> {
    const row = await this.#db.get<RuleRow>(`SELECT * FROM (${RULES_SQL}) WHERE scope = {s:String} AND key = {k:String}`, {
      s: req.scope,
      k: req.key,
    });
    return row ? fromRow(row) : null;
  }

  async setRule(req: { scope: RetentionScope; key: string; days: number | null; updatedAt: number; updatedBy: string }): Promise<void> {
    // updated_at decides which write wins: kept above the stored one even when this replica's
    // clock runs behind the last writer's (docs/clickhouse.md "Row versions").
    const stored = await this.#db.get<{ v: string | null }>(
      'SELECT max(updated_at) AS v FROM retention_rules WHERE scope = {s:String} AND key = {k:String}',
      { s: req.scope, k: req.key },
    );
    const updatedAt = Math.max(req.updatedAt, num(stored?.v ?? 0) + 1);
    await this.#db.insert('retention_rules', [
      { scope: req.scope, key: req.key, days: req.days ?? 0, updated_at: updatedAt, updated_by: req.updatedBy },
    ]);
  }

  async listRules(): Promise<RetentionRule[]> {
    return (await this.#db.all<RuleRow>(`${RULES_SQL} ORDER BY scope, key`)).map(fromRow);
  }

  async projectsInForce(): Promise<ProjectRetention[]> {
    const rules = await this.listRules();
    if (rules.length === 0) return [];
    const byProject = new Map(rules.filter((r) => r.scope === 'project').map((r) => [r.key, r.days]));
    const byEntity = new Map(rules.filter((r) => r.scope === 'entity').map((r) => [r.key, r.days]));
    const projects = await this.#db.all<{ project_id: string; entity: string }>(
      `SELECT DISTINCT project_id, entity FROM projects FINAL
       WHERE project_id IN {ps:Array(String)} OR entity IN {es:Array(String)} ORDER BY project_id`,
      { ps: [...byProject.keys()], es: [...byEntity.keys()] },
    );
    return projects.map((p) => {
      const own = byProject.get(p.project_id);
      return own !== undefined
        ? { projectId: p.project_id, days: own, source: 'project' as const }
        : { projectId: p.project_id, days: byEntity.get(p.entity)!, source: 'entity' as const };
    });
  }

  async expireCalls(req: { projectId: string; before: number; limit: number; now: number }): Promise<ExpiredCalls> {
    // Calls not yet expired, deleted ones too (so their rows go as well); an end without its
    // start is not a call and is left alone.
    const doomed = await this.#db.all<{ id: string; started_at: string; is_root: number }>(
      `SELECT id, started_at, parent_id IS NULL AS is_root FROM calls FINAL
       PREWHERE project_id = {p:String} WHERE started_at IS NOT NULL AND started_at < {before:Int64} AND expire_at IS NULL
       ORDER BY started_at LIMIT {limit:UInt32}`,
      { p: req.projectId, before: req.before, limit: req.limit },
    );
    if (doomed.length === 0) return { calls: 0, feedback: 0, files: 0, fileBytes: 0 };
    const ids = doomed.map((d) => d.id);
    const expireAt = expiryOf(req.now);
    const feedbackStore = this.#feedback();
    const feedback = (
      await feedbackStore.feedbackForRefs({ projectId: req.projectId, weaveRefs: ids.map((id) => `weave:///${req.projectId}/call/${id}`) })
    ).filter((f) => f.queue_id === null && f.annotation_ref === null);
    const purged = await feedbackStore.purgeFeedback({ projectId: req.projectId, ids: feedback.map((f) => f.id) });
    // Their hours' stats cells stop counting for reads before any row goes: the TTL will drop the
    // calls but not the cells (migration 24, docs/clickhouse.md "Stats rollup").
    const hours = new Set(doomed.map((d) => Math.floor(num(d.started_at) / STATS_HOUR)));
    await this.#db.insert(
      'call_stats_dirty',
      [...hours].map((hour) => ({ project_id: req.projectId, hour })),
    );
    // The call's own delete rows first (its thread turn gets them from this insert,
    // migrations/v19CallViews.ts; a crash after it leaves the call hidden), then the expiry of
    // the start-order entries; each insert is idempotent, so a retried sweep converges.
    await this.#db.insert(
      'calls',
      ids.map((id) => ({ project_id: req.projectId, id, deleted_at: req.now, part_ts: req.now, expire_at: expireAt })),
    );
    await this.#db.insert(
      'calls_by_start',
      doomed.map((d) => ({ project_id: req.projectId, started_at: num(d.started_at), id: d.id, is_root: d.is_root, expire_at: expireAt })),
    );
    // Then the files only these calls referred to (fileRefs.ts); a crash before it leaves them kept.
    const files = await expireUnreferencedFiles(this.#db, { projectId: req.projectId, callIds: ids, now: req.now, expireAt });
    return { calls: doomed.length, feedback: purged, files: files.files, fileBytes: files.bytes };
  }
}
