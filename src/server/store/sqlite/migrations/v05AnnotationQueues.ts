import type { Migration } from './migration.js';

export const v05AnnotationQueues: Migration = {
  version: 5,
  name: 'annotation queues, their items and per-annotator progress',
  sql: `
      -- scorer_refs is a JSON array of refs. A deleted queue (deleted_at set) hides its items
      -- and their progress from every read; nothing under it is deleted.
      CREATE TABLE annotation_queues (
        project_id  TEXT NOT NULL,
        id          TEXT NOT NULL,
        name        TEXT NOT NULL,
        description TEXT NOT NULL,
        scorer_refs TEXT NOT NULL,
        created_by  TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        deleted_at  INTEGER,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX annotation_queues_by_created ON annotation_queues (project_id, created_at);

      -- One item per call and queue; the call fields are copied when the call is added and
      -- not refreshed later. display_fields is a JSON array of paths.
      CREATE TABLE annotation_queue_items (
        project_id      TEXT NOT NULL,
        id              TEXT NOT NULL,
        queue_id        TEXT NOT NULL,
        call_id         TEXT NOT NULL,
        call_started_at INTEGER NOT NULL,
        call_ended_at   INTEGER,
        call_op_name    TEXT NOT NULL,
        call_trace_id   TEXT NOT NULL,
        display_fields  TEXT NOT NULL,
        added_by        TEXT,
        created_by      TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        PRIMARY KEY (project_id, id),
        UNIQUE (project_id, queue_id, call_id)
      );
      CREATE INDEX annotation_queue_items_by_created ON annotation_queue_items (project_id, queue_id, created_at, id);

      -- One record per (item, annotator). updated_at is unique per item (the store keeps it
      -- increasing), so "the latest record" is always one record.
      CREATE TABLE annotator_queue_items_progress (
        project_id       TEXT NOT NULL,
        queue_item_id    TEXT NOT NULL,
        annotator_id     TEXT NOT NULL,
        queue_id         TEXT NOT NULL,
        annotation_state TEXT NOT NULL CHECK (annotation_state IN ('in_progress', 'completed', 'skipped')),
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL,
        PRIMARY KEY (project_id, queue_item_id, annotator_id)
      ) WITHOUT ROWID;
      CREATE INDEX annotator_progress_by_queue ON annotator_queue_items_progress (project_id, queue_id, annotation_state);
    `,
};
