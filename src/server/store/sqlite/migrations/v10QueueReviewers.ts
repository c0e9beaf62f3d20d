import type { Migration } from './migration.js';

export const v10QueueReviewers: Migration = {
  version: 10,
  name: 'annotation queues: reviewers per item, thread items, reservations and superseded answers',
  sql: `
      -- How many reviewers should complete each item before fetch-next stops offering it.
      ALTER TABLE annotation_queues ADD COLUMN reviewers_per_item INTEGER NOT NULL DEFAULT 1;

      -- An item that stands for a whole conversation: call_id is then the thread's first turn
      -- (where the answers land as feedback) and thread_id the conversation reviewers see.
      ALTER TABLE annotation_queue_items ADD COLUMN thread_id TEXT;

      -- Who holds an item for review until when (epoch microseconds). Fetch-next reserves,
      -- submit and skip release, and an expired row counts for nothing (and is swept).
      CREATE TABLE annotation_item_reservations (
        project_id    TEXT NOT NULL,
        queue_item_id TEXT NOT NULL,
        annotator_id  TEXT NOT NULL,
        queue_id      TEXT NOT NULL,
        expires_at    INTEGER NOT NULL,
        PRIMARY KEY (project_id, queue_item_id, annotator_id)
      ) WITHOUT ROWID;
      CREATE INDEX annotation_reservations_by_queue ON annotation_item_reservations (project_id, queue_id, annotator_id);

      -- Queue answers a reviewer replaced by editing the item: the feedback row as it was,
      -- moved here (so /feedback/query shows one current answer) with when and for which item.
      CREATE TABLE feedback_superseded (
        project_id     TEXT NOT NULL,
        id             TEXT NOT NULL,
        weave_ref      TEXT NOT NULL,
        wb_user_id     TEXT,
        creator        TEXT,
        created_at     INTEGER NOT NULL,
        feedback_type  TEXT NOT NULL,
        payload        TEXT NOT NULL,
        annotation_ref TEXT,
        queue_id       TEXT,
        queue_item_id  TEXT,
        superseded_at  INTEGER NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX feedback_superseded_by_item ON feedback_superseded (project_id, queue_id, queue_item_id);

      -- A queue's current answers, for its results, summary and export.
      CREATE INDEX feedback_by_queue ON feedback (project_id, queue_id) WHERE queue_id IS NOT NULL;
    `,
};
