/**
 * ClickHouse implementation of RedactionStore: one ReplacingMergeTree row per rule
 * (migrations/v16Redaction.ts), tombstoned by a delete. The epoch is the table's highest row
 * version: every add and delete inserts a row with a newer one.
 */
import type { RedactionRuleKind, RedactionRuleRecord, RedactionStore } from '../RedactionStore.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

interface Row {
  id: string;
  scope: string;
  kind: string;
  value: string;
  label: string;
  created_by: string;
  created_at: string;
}

const LIVE = 'SELECT id, scope, kind, value, label, created_by, created_at FROM redaction_rules FINAL WHERE is_deleted = 0';

const toRecord = (r: Row): RedactionRuleRecord => ({
  id: r.id,
  scope: r.scope,
  kind: r.kind as RedactionRuleKind,
  value: r.value,
  label: r.label,
  createdBy: r.created_by,
  createdAt: num(r.created_at),
});

const toRow = (r: RedactionRuleRecord, version: number, isDeleted: 0 | 1) => ({
  id: r.id,
  scope: r.scope,
  kind: r.kind,
  value: r.value,
  label: r.label,
  created_by: r.createdBy,
  created_at: r.createdAt,
  version,
  is_deleted: isDeleted,
});

export class ClickHouseRedactionStore implements RedactionStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async listRules(scopes: readonly string[]): Promise<RedactionRuleRecord[]> {
    if (scopes.length === 0) return [];
    const rows = await this.#db.all<Row>(`${LIVE} AND scope IN {s:Array(String)} ORDER BY created_at, id`, { s: [...scopes] });
    return rows.map(toRecord);
  }

  async getRule(id: string): Promise<RedactionRuleRecord | null> {
    const row = await this.#db.get<Row>(`${LIVE} AND id = {i:String}`, { i: id });
    return row ? toRecord(row) : null;
  }

  async addRule(rule: RedactionRuleRecord): Promise<void> {
    await this.#db.insert('redaction_rules', [toRow(rule, await this.#version(), 0)]);
  }

  async deleteRule(id: string): Promise<boolean> {
    const existing = await this.getRule(id);
    if (!existing) return false;
    await this.#db.insert('redaction_rules', [toRow(existing, await this.#version(), 1)]);
    return true;
  }

  /**
   * Above every version in the table, not just the rule's: `epoch()` is the highest version, and
   * a change must move it even when this replica's clock is behind the last writer's.
   */
  #version(): Promise<number> {
    return this.#db.versionAfter('redaction_rules', '1');
  }

  async epoch(): Promise<number> {
    const row = await this.#db.get<{ v: string | number | null }>('SELECT max(version) AS v FROM redaction_rules');
    return num(row?.v ?? 0);
  }
}
