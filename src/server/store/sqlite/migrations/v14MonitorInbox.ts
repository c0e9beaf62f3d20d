/**
 * Migration 14: the monitor inbox. Monitors (Weave `Monitor` objects) score a sampled share of
 * the calls that end after they are active. Ingest must not slow down nor score inline, and no
 * ended call may be missed across restarts, so the write transaction that ends a call also
 * queues its id here — but only for projects that have a monitor at all, so every other project
 * pays one primary-key probe of a tiny table per ended call. The monitor sweeper
 * (jobs/MonitorSweeper.ts) reads the inbox in order, turns matches into scoring jobs and deletes
 * what it handled, in one transaction.
 *
 * Why server-side sequence rather than a watermark on `ended_at`: `ended_at` is the client's
 * clock and batches arrive late, so a time watermark would skip calls; `seq` is the order the
 * server wrote them in.
 */
import type { Migration } from './migration.js';

export const v14MonitorInbox: Migration = {
  version: 14,
  name: 'monitor inbox: calls that ended in projects with monitors',
  sql: `
    -- Projects with at least one Monitor object version (active or not). Rows are added by the
    -- trigger below in the transaction that stores the monitor; the sweeper removes projects
    -- whose monitors are all inactive or deleted.
    CREATE TABLE monitored_projects (
      project_id TEXT PRIMARY KEY
    ) WITHOUT ROWID;

    CREATE TABLE monitor_inbox (
      seq        INTEGER PRIMARY KEY AUTOINCREMENT,
      project_id TEXT NOT NULL,
      call_id    TEXT NOT NULL
    );

    INSERT OR IGNORE INTO monitored_projects
      SELECT DISTINCT project_id FROM objects WHERE leaf_object_class = 'Monitor' AND deleted_at IS NULL;

    CREATE TRIGGER monitor_objects_inserted AFTER INSERT ON objects
    WHEN NEW.leaf_object_class = 'Monitor'
    BEGIN
      INSERT OR IGNORE INTO monitored_projects VALUES (NEW.project_id);
    END;

    -- A call that is written already ended (start and end in one batch) ...
    CREATE TRIGGER monitor_calls_inserted AFTER INSERT ON calls
    WHEN NEW.ended_at IS NOT NULL AND NEW.deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM monitored_projects WHERE project_id = NEW.project_id)
    BEGIN
      INSERT INTO monitor_inbox (project_id, call_id) VALUES (NEW.project_id, NEW.id);
    END;

    -- ... or ends later. A repeated end does not queue the call again.
    CREATE TRIGGER monitor_calls_ended AFTER UPDATE OF ended_at ON calls
    WHEN OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL
      AND EXISTS (SELECT 1 FROM monitored_projects WHERE project_id = NEW.project_id)
    BEGIN
      INSERT INTO monitor_inbox (project_id, call_id) VALUES (NEW.project_id, NEW.id);
    END;
  `,
};
