/**
 * Migration 24: retention rules (store/RetentionStore.ts, docs/operations/retention.md). One row
 * per project or entity default; no row means calls are kept forever. The sweep finds a
 * project's expired calls through calls_by_start, so no index is added to calls.
 */
import type { Migration } from './migration.js';

export const v24Retention: Migration = {
  version: 24,
  name: 'retention rules',
  sql: `
    CREATE TABLE retention_rules (
      scope      TEXT NOT NULL CHECK (scope IN ('project', 'entity')),
      key        TEXT NOT NULL,
      days       INTEGER NOT NULL CHECK (days >= 1),
      updated_at INTEGER NOT NULL,
      updated_by TEXT NOT NULL,
      PRIMARY KEY (scope, key)
    ) WITHOUT ROWID;
  `,
};
