/** Migration 32: alert rules per project and the history of their firings (store/AlertsStore.ts, docs/alerts.md). */
import type { Migration } from './migration.js';

export const v31AlertRules: Migration = {
  version: 31,
  name: 'alert rules and events',
  sql: `
    CREATE TABLE alert_rules (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      name TEXT NOT NULL,
      spec TEXT NOT NULL,
      webhook_sealed TEXT NOT NULL,
      webhook_mask TEXT NOT NULL,
      trusted INTEGER NOT NULL,
      enabled INTEGER NOT NULL,
      snoozed_until INTEGER,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX alert_rules_by_project ON alert_rules (project_id, name);
    CREATE TABLE alert_events (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      rule_id TEXT NOT NULL,
      state TEXT NOT NULL,
      value REAL,
      threshold REAL NOT NULL,
      at INTEGER NOT NULL,
      delivery TEXT NOT NULL,
      detail TEXT
    );
    CREATE INDEX alert_events_by_rule ON alert_events (project_id, rule_id, at);
    CREATE INDEX alert_events_by_project ON alert_events (project_id, at);
  `,
};
