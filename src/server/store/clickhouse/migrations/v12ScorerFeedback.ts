import type { ClickHouseMigration } from './migration.js';

export const v12ScorerFeedback: ClickHouseMigration = {
  version: 12,
  name: "scorers' typed results on feedback",
  statements: [
    // A scorer's typed results and the scored span beside the payload, as the newest reference
    // stores them (contract ScorerFeedbackFields). Collections as JSON text, like SQLite's, so
    // both stores answer /feedback/query alike; rows written before read as empty ones.
    `ALTER TABLE feedback
        ADD COLUMN IF NOT EXISTS scorer_tags String DEFAULT '[]',
        ADD COLUMN IF NOT EXISTS scorer_tag_reasons String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_tag_confidences String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_ratings String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_rating_reasons String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_rating_confidences String DEFAULT '{}',
        ADD COLUMN IF NOT EXISTS scorer_trace_id Nullable(String),
        ADD COLUMN IF NOT EXISTS span_agent_name Nullable(String),
        ADD COLUMN IF NOT EXISTS span_agent_version Nullable(String),
        ADD COLUMN IF NOT EXISTS span_conversation_id Nullable(String),
        ADD COLUMN IF NOT EXISTS span_status_code Nullable(String),
        ADD COLUMN IF NOT EXISTS span_trace_id Nullable(String)`,
  ],
};
