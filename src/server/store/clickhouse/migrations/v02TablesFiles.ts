import type { ClickHouseMigration } from './migration.js';

export const v02TablesFiles: ClickHouseMigration = {
  version: 2,
  name: 'tables and files',
  statements: [
    // Rows once per digest (content addresses: any copy is the same content).
    `CREATE TABLE IF NOT EXISTS table_rows (project_id String, digest String, val String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest)`,
    // A table is its ordered list of row digests, one row per position, so a page is a range.
    `CREATE TABLE IF NOT EXISTS table_entries (project_id String, table_digest String, idx UInt32, row_digest String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, table_digest, idx)`,
    // Written after its entries: a table is visible only once all of them are stored.
    `CREATE TABLE IF NOT EXISTS tables (project_id String, digest String, row_count UInt32, created_at Int64)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest)`,
    // A file's bytes (base64, since JSON carries text) in chunks of one copy; two replicas
    // storing the same digest at once write two copies, and \`files\` points at one of them,
    // so chunks of different copies never mix. The first copy wins (version = its rank).
    `CREATE TABLE IF NOT EXISTS file_chunks (project_id String, digest String, copy_id String, chunk_index UInt32, data_b64 String)
        ENGINE = ReplacingMergeTree ORDER BY (project_id, digest, copy_id, chunk_index)`,
    `CREATE TABLE IF NOT EXISTS files (project_id String, digest String, copy_id String, name String, size_bytes UInt64,
        created_at Int64, rank UInt64)
        ENGINE = ReplacingMergeTree(rank) ORDER BY (project_id, digest)`,
  ],
};
