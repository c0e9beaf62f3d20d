/**
 * Migration 23: the audit log (docs/security/audit.md). One row per entry, append-only, each
 * chained to the previous row of its chain by `prev_hash` and `hash` (audit/auditChain.ts).
 * SQLite has one chain ('sqlite'): every process writes under the file's one write lock, so
 * the head read and the insert of an append cannot interleave with another's.
 */
import type { Migration } from './migration.js';

export const v23AuditLog: Migration = {
  version: 23,
  name: 'the audit log',
  sql: `
    CREATE TABLE audit_log (
      chain          TEXT NOT NULL,
      seq            INTEGER NOT NULL,
      time           INTEGER NOT NULL,
      actor_username TEXT,
      actor_key_id   TEXT,
      actor_via      TEXT NOT NULL,
      address        TEXT NOT NULL,
      action         TEXT NOT NULL,
      target         TEXT NOT NULL,
      entity         TEXT,
      project_id     TEXT,
      outcome        TEXT NOT NULL,
      details        TEXT NOT NULL,
      prev_hash      TEXT NOT NULL,
      hash           TEXT NOT NULL,
      PRIMARY KEY (chain, seq)
    );
    CREATE INDEX audit_log_by_time ON audit_log (time, chain, seq);
    CREATE INDEX audit_log_by_entity ON audit_log (entity, time);
  `,
};
