/** SQLite implementation of RedactionStore (tables redaction_rules and redaction_epoch, migration 25). */
import type { RedactionRuleKind, RedactionRuleRecord, RedactionStore } from '../RedactionStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface Row {
  id: string;
  scope: string;
  kind: string;
  value: string;
  label: string;
  created_by: string;
  created_at: number;
}

const toRecord = (r: Row): RedactionRuleRecord => ({
  id: r.id,
  scope: r.scope,
  kind: r.kind as RedactionRuleKind,
  value: r.value,
  label: r.label,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

export class SqliteRedactionStore implements RedactionStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async listRules(scopes: readonly string[]): Promise<RedactionRuleRecord[]> {
    if (scopes.length === 0) return [];
    return this.#db
      .all<Row>(`SELECT * FROM redaction_rules WHERE scope IN (${scopes.map(() => '?').join(', ')}) ORDER BY created_at, id`, [...scopes])
      .map(toRecord);
  }

  async getRule(id: string): Promise<RedactionRuleRecord | null> {
    const row = this.#db.get<Row>('SELECT * FROM redaction_rules WHERE id = ?', [id]);
    return row ? toRecord(row) : null;
  }

  async addRule(r: RedactionRuleRecord): Promise<void> {
    this.#db.transaction(() => {
      this.#db.run('INSERT INTO redaction_rules (id, scope, kind, value, label, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        r.id,
        r.scope,
        r.kind,
        r.value,
        r.label,
        r.createdBy,
        r.createdAt,
      ]);
      this.#db.run('UPDATE redaction_epoch SET epoch = epoch + 1 WHERE id = 1');
    });
  }

  async deleteRule(id: string): Promise<boolean> {
    return this.#db.transaction(() => {
      const deleted = this.#db.run('DELETE FROM redaction_rules WHERE id = ?', [id]).changes > 0;
      if (deleted) this.#db.run('UPDATE redaction_epoch SET epoch = epoch + 1 WHERE id = 1');
      return deleted;
    });
  }

  async epoch(): Promise<number> {
    return this.#db.get<{ epoch: number }>('SELECT epoch FROM redaction_epoch WHERE id = 1')?.epoch ?? 0;
  }
}
