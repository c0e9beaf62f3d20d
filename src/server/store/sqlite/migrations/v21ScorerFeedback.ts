/**
 * Migration 21: a scorer's typed results and the scored span on feedback rows, beside the
 * payload, as the newest reference stores them (contract ScorerFeedbackFields): tags, ratings,
 * their reasons and confidences (JSON text; the empty list or object when none, so rows written
 * before read as the reference's empty Array and Map columns do) and the scorer's trace and
 * scored span (text, NULL when not given). `/feedback/aggregate` counts and groups by them.
 */
import type { Migration } from './migration.js';

export const v21ScorerFeedback: Migration = {
  version: 21,
  name: "scorers' typed results on feedback",
  sql: `
    ALTER TABLE feedback ADD COLUMN scorer_tags TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE feedback ADD COLUMN scorer_tag_reasons TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE feedback ADD COLUMN scorer_tag_confidences TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE feedback ADD COLUMN scorer_ratings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE feedback ADD COLUMN scorer_rating_reasons TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE feedback ADD COLUMN scorer_rating_confidences TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE feedback ADD COLUMN scorer_trace_id TEXT;
    ALTER TABLE feedback ADD COLUMN span_agent_name TEXT;
    ALTER TABLE feedback ADD COLUMN span_agent_version TEXT;
    ALTER TABLE feedback ADD COLUMN span_conversation_id TEXT;
    ALTER TABLE feedback ADD COLUMN span_status_code TEXT;
    ALTER TABLE feedback ADD COLUMN span_trace_id TEXT;
  `,
};
