/**
 * Migration 29: the trace index covers what a trace's outline reads (docs/trace-outline.md), so
 * the outline never touches the table's rows. In a row, summary and exception come after inputs
 * and output; reading them walks the payloads' overflow pages (10,000 spans of 20 KB: ~120 ms of
 * CPU for the walk alone). It replaces calls_by_trace. trace_id leads: led by project_id, this
 * covering index was the planner's pick for any project-wide lookup it covers (a delete's walk
 * down parent_id scanned the project per step: 100,000 descendants ran past 10 minutes).
 */
import type { Migration } from './migration.js';

export const v29TraceTreeIndex: Migration = {
  version: 29,
  name: 'trace tree index',
  sql: `
    CREATE INDEX IF NOT EXISTS calls_trace_tree ON calls (
      trace_id, project_id, started_at, id, parent_id, op_name, display_name, ended_at, deleted_at, exception, summary
    );
    DROP INDEX IF EXISTS calls_by_trace;
  `,
};
