/**
 * ClickHouse implementation of AlertsStore (migrations/v22AlertRules.ts): one ReplacingMergeTree
 * row per rule, rewritten whole by a save and tombstoned by a delete, and one per event. The
 * webhook URL is stored as the secret box's ciphertext only; replicas share `WEFT_SECRET`.
 *
 * An event is written once per evaluation: the job runner claims each evaluation's job once
 * across replicas, and an id already stored is left alone (read before the insert).
 */
import type { AlertEventRecord, AlertRuleRecord, AlertsStore, AlertSpec } from '../AlertsStore.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  spec: string;
  webhook_sealed: string;
  webhook_mask: string;
  trusted: number;
  enabled: number;
  snoozed_until: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

interface EventRow {
  id: string;
  project_id: string;
  rule_id: string;
  state: string;
  value: number | null;
  threshold: number;
  at: string;
  delivery: string;
  detail: string | null;
}

const RULE_COLUMNS =
  'id, project_id, name, spec, webhook_sealed, webhook_mask, trusted, enabled, snoozed_until, created_by, created_at, updated_at';
const LIVE_RULES = `SELECT ${RULE_COLUMNS} FROM alert_rules FINAL WHERE is_deleted = 0`;
const LIVE_EVENTS =
  'SELECT id, project_id, rule_id, state, value, threshold, at, delivery, detail FROM alert_events FINAL WHERE is_deleted = 0';

const toRule = (r: RuleRow): AlertRuleRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  spec: JSON.parse(r.spec) as AlertSpec,
  webhookSealed: r.webhook_sealed,
  webhookMask: r.webhook_mask,
  trusted: Number(r.trusted) === 1,
  enabled: Number(r.enabled) === 1,
  snoozedUntil: r.snoozed_until === null ? null : num(r.snoozed_until),
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

const toEvent = (r: EventRow): AlertEventRecord => ({
  id: r.id,
  projectId: r.project_id,
  ruleId: r.rule_id,
  state: r.state as AlertEventRecord['state'],
  value: r.value === null ? null : Number(r.value),
  threshold: Number(r.threshold),
  at: num(r.at),
  delivery: r.delivery as AlertEventRecord['delivery'],
  detail: r.detail,
});

export class ClickHouseAlertsStore implements AlertsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async listAlertRules(projectId: string): Promise<AlertRuleRecord[]> {
    return (await this.#db.all<RuleRow>(`${LIVE_RULES} AND project_id = {p:String} ORDER BY name, id`, { p: projectId })).map(toRule);
  }

  async enabledAlertRules(): Promise<AlertRuleRecord[]> {
    return (await this.#db.all<RuleRow>(`${LIVE_RULES} AND enabled = 1 ORDER BY project_id, id`)).map(toRule);
  }

  async getAlertRule(req: { projectId: string; id: string }): Promise<AlertRuleRecord | null> {
    const row = await this.#db.get<RuleRow>(`${LIVE_RULES} AND project_id = {p:String} AND id = {i:String}`, {
      p: req.projectId,
      i: req.id,
    });
    return row ? toRule(row) : null;
  }

  async saveAlertRule(r: AlertRuleRecord): Promise<void> {
    const existing = await this.getAlertRule({ projectId: r.projectId, id: r.id });
    await this.#db.insert('alert_rules', [
      {
        ...this.#ruleRow({ ...r, createdBy: existing?.createdBy ?? r.createdBy, createdAt: existing?.createdAt ?? r.createdAt }),
        version: await this.#ruleVersion(r.projectId, r.id),
        is_deleted: 0,
      },
    ]);
  }

  async deleteAlertRule(req: { projectId: string; id: string }): Promise<boolean> {
    const existing = await this.getAlertRule(req);
    if (!existing) return false;
    const events = await this.listAlertEvents({ projectId: req.projectId, ruleId: req.id, limit: 1_000_000 });
    if (events.length) {
      const version = await this.#eventVersion(req.projectId, req.id);
      await this.#db.insert(
        'alert_events',
        events.map((e) => ({ ...this.#eventRow(e), version, is_deleted: 1 })),
      );
    }
    await this.#db.insert('alert_rules', [
      { ...this.#ruleRow(existing), version: await this.#ruleVersion(req.projectId, req.id), is_deleted: 1 },
    ]);
    return true;
  }

  async addAlertEvent(e: AlertEventRecord): Promise<void> {
    const seen = await this.#db.get(
      `SELECT 1 FROM alert_events WHERE project_id = {p:String} AND rule_id = {r:String} AND id = {i:String}`,
      {
        p: e.projectId,
        r: e.ruleId,
        i: e.id,
      },
    );
    if (seen) return;
    await this.#db.insert('alert_events', [{ ...this.#eventRow(e), version: 1, is_deleted: 0 }]);
  }

  async listAlertEvents(req: { projectId: string; ruleId?: string | null; limit: number }): Promise<AlertEventRecord[]> {
    const byRule = req.ruleId ? ' AND rule_id = {r:String}' : '';
    const rows = await this.#db.all<EventRow>(
      `${LIVE_EVENTS} AND project_id = {p:String}${byRule} ORDER BY at DESC, id DESC LIMIT {n:UInt32}`,
      {
        p: req.projectId,
        r: req.ruleId ?? '',
        n: req.limit,
      },
    );
    return rows.map(toEvent);
  }

  #ruleRow(r: AlertRuleRecord) {
    return {
      project_id: r.projectId,
      id: r.id,
      name: r.name,
      spec: JSON.stringify(r.spec),
      webhook_sealed: r.webhookSealed,
      webhook_mask: r.webhookMask,
      trusted: r.trusted ? 1 : 0,
      enabled: r.enabled ? 1 : 0,
      snoozed_until: r.snoozedUntil,
      created_by: r.createdBy,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    };
  }

  #eventRow(e: AlertEventRecord) {
    return {
      project_id: e.projectId,
      rule_id: e.ruleId,
      id: e.id,
      state: e.state,
      value: e.value,
      threshold: e.threshold,
      at: e.at,
      delivery: e.delivery,
      detail: e.detail,
    };
  }

  #ruleVersion(projectId: string, id: string): Promise<number> {
    return this.#db.versionAfter('alert_rules', 'project_id = {p:String} AND id = {i:String}', { p: projectId, i: id });
  }

  #eventVersion(projectId: string, ruleId: string): Promise<number> {
    return this.#db.versionAfter('alert_events', 'project_id = {p:String} AND rule_id = {r:String}', { p: projectId, r: ruleId });
  }
}
