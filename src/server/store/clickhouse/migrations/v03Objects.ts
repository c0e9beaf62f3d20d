import type { ClickHouseMigration } from './migration.js';

export const v03Objects: ClickHouseMigration = {
  version: 3,
  name: 'objects with tags and aliases',
  statements: [
    // One row per version (the newest write of it wins). \`generation\` counts how often the
    // digest was created: a deleted digest created again is its next generation.
    `CREATE TABLE IF NOT EXISTS object_versions (
        project_id String, object_id String, digest String, kind String,
        base_object_class Nullable(String), leaf_object_class Nullable(String),
        val String, size_bytes UInt64, wb_user_id Nullable(String),
        created_at Int64, deleted_at Nullable(Int64), generation UInt32, version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (project_id, object_id, digest)`,
    // Every creation of a version (the first of a generation wins, so a concurrent duplicate
    // collapses). version_index is computed from these at read time: the number of creations
    // of the object before this digest's last one, as the SQLite store's max+1 counts.
    `CREATE TABLE IF NOT EXISTS object_creations (
        project_id String, object_id String, digest String, generation UInt32, created_at Int64, rank UInt64
      ) ENGINE = ReplacingMergeTree(rank) ORDER BY (project_id, object_id, digest, generation)`,
    `CREATE TABLE IF NOT EXISTS object_tags (
        project_id String, object_id String, digest String, tag String, created_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, object_id, digest, tag)`,
    // Keyed by alias, so setting it on another version moves it (the newest write wins).
    `CREATE TABLE IF NOT EXISTS object_aliases (
        project_id String, object_id String, alias String, digest String, created_at Int64, version UInt64, is_deleted UInt8
      ) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (project_id, object_id, alias)`,
  ],
};
