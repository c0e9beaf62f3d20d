/**
 * Migration 25: redaction rules, per project or per entity (store/RedactionStore.ts), and a
 * one-row epoch that every add or delete bumps, so each process can tell cheaply that its cached
 * rules are stale (domain/redaction/ruleCache.ts).
 */
import type { Migration } from './migration.js';

export const v25Redaction: Migration = {
  version: 25,
  name: 'redaction rules',
  sql: `
    CREATE TABLE redaction_rules (
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      kind TEXT NOT NULL,
      value TEXT NOT NULL,
      label TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX redaction_rules_by_scope ON redaction_rules (scope, created_at);
    CREATE TABLE redaction_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), epoch INTEGER NOT NULL);
    INSERT INTO redaction_epoch (id, epoch) VALUES (1, 0);
  `,
};
