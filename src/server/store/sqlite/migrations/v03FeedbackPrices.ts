import type { Migration } from './migration.js';

export const v03FeedbackPrices: Migration = {
  version: 3,
  name: 'feedback and LLM prices',
  sql: `
      -- Feedback on refs (usually calls). payload holds JSON text; times are epoch microseconds.
      -- A client-chosen id that is written again replaces the row (latest write wins).
      CREATE TABLE feedback (
        project_id     TEXT NOT NULL,
        id             TEXT NOT NULL,
        weave_ref      TEXT NOT NULL,
        wb_user_id     TEXT,
        creator        TEXT,
        created_at     INTEGER NOT NULL,
        feedback_type  TEXT NOT NULL,
        payload        TEXT NOT NULL,
        annotation_ref TEXT,
        runnable_ref   TEXT,
        call_ref       TEXT,
        trigger_ref    TEXT,
        queue_id       TEXT,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX feedback_by_ref  ON feedback (project_id, weave_ref);
      CREATE INDEX feedback_by_time ON feedback (project_id, created_at);

      -- Per-token LLM prices: 'default' level (the shipped list, reseeded at every start) and
      -- 'project' level (pricing_level_id = project id). Costs are REAL, dates microseconds.
      CREATE TABLE llm_token_prices (
        id                         TEXT PRIMARY KEY,
        pricing_level              TEXT NOT NULL,
        pricing_level_id           TEXT NOT NULL,
        provider_id                TEXT NOT NULL,
        llm_id                     TEXT NOT NULL,
        effective_date             INTEGER NOT NULL,
        prompt_token_cost          REAL NOT NULL,
        completion_token_cost      REAL NOT NULL,
        prompt_token_cost_unit     TEXT NOT NULL,
        completion_token_cost_unit TEXT NOT NULL,
        created_by                 TEXT NOT NULL,
        created_at                 INTEGER NOT NULL
      );
      CREATE INDEX llm_token_prices_by_level ON llm_token_prices (pricing_level_id, pricing_level, llm_id, effective_date);
    `,
};
