import type { Migration } from './migration.js';

export const v02ObjectsTablesFiles: Migration = {
  version: 2,
  name: 'objects with tags and aliases, tables, files',
  sql: `
      -- One row per object version. version_index and is_latest are maintained by the store
      -- in the write transaction (the newest live version is the latest).
      CREATE TABLE objects (
        project_id        TEXT NOT NULL,
        object_id         TEXT NOT NULL,
        digest            TEXT NOT NULL,
        kind              TEXT NOT NULL,
        base_object_class TEXT,
        leaf_object_class TEXT,
        val               TEXT NOT NULL,     -- compact JSON, floats as written (1.0)
        size_bytes        INTEGER NOT NULL,
        version_index     INTEGER NOT NULL,
        is_latest         INTEGER NOT NULL,
        wb_user_id        TEXT,
        created_at        INTEGER NOT NULL,
        deleted_at        INTEGER,
        PRIMARY KEY (project_id, object_id, digest)
      );
      CREATE INDEX objects_by_created ON objects (project_id, created_at, version_index);
      CREATE INDEX objects_by_version ON objects (project_id, object_id, version_index);

      CREATE TABLE object_tags (
        project_id TEXT NOT NULL,
        object_id  TEXT NOT NULL,
        digest     TEXT NOT NULL,
        tag        TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, object_id, digest, tag)
      ) WITHOUT ROWID;
      CREATE INDEX object_tags_by_tag ON object_tags (project_id, tag);

      -- An alias names one version of an object at a time.
      CREATE TABLE object_aliases (
        project_id TEXT NOT NULL,
        object_id  TEXT NOT NULL,
        alias      TEXT NOT NULL,
        digest     TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, object_id, alias)
      ) WITHOUT ROWID;
      CREATE INDEX object_aliases_by_version ON object_aliases (project_id, object_id, digest);

      -- Table rows are stored once per digest; a table is its ordered list of row digests,
      -- kept in chunks (JSON arrays) so a large table streams one chunk at a time.
      CREATE TABLE table_rows (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        val        TEXT NOT NULL,
        PRIMARY KEY (project_id, digest)
      );
      CREATE TABLE tables (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        row_count  INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, digest)
      ) WITHOUT ROWID;
      CREATE TABLE table_chunks (
        project_id   TEXT NOT NULL,
        table_digest TEXT NOT NULL,
        start_index  INTEGER NOT NULL,
        row_count    INTEGER NOT NULL,
        row_digests  TEXT NOT NULL,
        PRIMARY KEY (project_id, table_digest, start_index)
      );

      -- Files in chunks of at most 1 MiB, streamed back chunk by chunk.
      CREATE TABLE files (
        project_id  TEXT NOT NULL,
        digest      TEXT NOT NULL,
        name        TEXT NOT NULL,
        size_bytes  INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (project_id, digest)
      ) WITHOUT ROWID;
      CREATE TABLE file_chunks (
        project_id  TEXT NOT NULL,
        digest      TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data        BLOB NOT NULL,
        PRIMARY KEY (project_id, digest, chunk_index)
      );
    `,
};
