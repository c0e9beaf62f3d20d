/** SQLite implementation of AlertsStore (tables alert_rules and alert_events, migration 31). */
import type { AlertEventRecord, AlertRuleRecord, AlertsStore, AlertSpec } from '../AlertsStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  spec: string;
  webhook_sealed: string;
  webhook_mask: string;
  trusted: number;
  enabled: number;
  snoozed_until: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

interface EventRow {
  id: string;
  project_id: string;
  rule_id: string;
  state: string;
  value: number | null;
  threshold: number;
  at: number;
  delivery: string;
  detail: string | null;
}

const toRule = (r: RuleRow): AlertRuleRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  spec: JSON.parse(r.spec) as AlertSpec,
  webhookSealed: r.webhook_sealed,
  webhookMask: r.webhook_mask,
  trusted: r.trusted === 1,
  enabled: r.enabled === 1,
  snoozedUntil: r.snoozed_until,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toEvent = (r: EventRow): AlertEventRecord => ({
  id: r.id,
  projectId: r.project_id,
  ruleId: r.rule_id,
  state: r.state as AlertEventRecord['state'],
  value: r.value,
  threshold: r.threshold,
  at: r.at,
  delivery: r.delivery as AlertEventRecord['delivery'],
  detail: r.detail,
});

export class SqliteAlertsStore implements AlertsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async listAlertRules(projectId: string): Promise<AlertRuleRecord[]> {
    return this.#db.all<RuleRow>('SELECT * FROM alert_rules WHERE project_id = ? ORDER BY name, id', [projectId]).map(toRule);
  }

  async enabledAlertRules(): Promise<AlertRuleRecord[]> {
    return this.#db.all<RuleRow>('SELECT * FROM alert_rules WHERE enabled = 1 ORDER BY project_id, id').map(toRule);
  }

  async getAlertRule(req: { projectId: string; id: string }): Promise<AlertRuleRecord | null> {
    const row = this.#db.get<RuleRow>('SELECT * FROM alert_rules WHERE project_id = ? AND id = ?', [req.projectId, req.id]);
    return row ? toRule(row) : null;
  }

  async saveAlertRule(r: AlertRuleRecord): Promise<void> {
    this.#db.transaction(() => {
      this.#db.run(
        `INSERT INTO alert_rules (id, project_id, name, spec, webhook_sealed, webhook_mask, trusted, enabled, snoozed_until,
           created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, spec = excluded.spec, webhook_sealed = excluded.webhook_sealed,
           webhook_mask = excluded.webhook_mask, trusted = excluded.trusted, enabled = excluded.enabled,
           snoozed_until = excluded.snoozed_until, updated_at = excluded.updated_at`,
        [
          r.id,
          r.projectId,
          r.name,
          JSON.stringify(r.spec),
          r.webhookSealed,
          r.webhookMask,
          r.trusted ? 1 : 0,
          r.enabled ? 1 : 0,
          r.snoozedUntil,
          r.createdBy,
          r.createdAt,
          r.updatedAt,
        ],
      );
    });
  }

  async deleteAlertRule(req: { projectId: string; id: string }): Promise<boolean> {
    return this.#db.transaction(() => {
      this.#db.run('DELETE FROM alert_events WHERE project_id = ? AND rule_id = ?', [req.projectId, req.id]);
      return this.#db.run('DELETE FROM alert_rules WHERE project_id = ? AND id = ?', [req.projectId, req.id]).changes > 0;
    });
  }

  async addAlertEvent(e: AlertEventRecord): Promise<void> {
    this.#db.transaction(() =>
      this.#db.run(
        `INSERT INTO alert_events (id, project_id, rule_id, state, value, threshold, at, delivery, detail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [e.id, e.projectId, e.ruleId, e.state, e.value, e.threshold, e.at, e.delivery, e.detail],
      ),
    );
  }

  async listAlertEvents(req: { projectId: string; ruleId?: string | null; limit: number }): Promise<AlertEventRecord[]> {
    const byRule = req.ruleId ? ' AND rule_id = ?' : '';
    return this.#db
      .all<EventRow>(`SELECT * FROM alert_events WHERE project_id = ?${byRule} ORDER BY at DESC, id DESC LIMIT ?`, [
        req.projectId,
        ...(req.ruleId ? [req.ruleId] : []),
        req.limit,
      ])
      .map(toEvent);
  }
}
