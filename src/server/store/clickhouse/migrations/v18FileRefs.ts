import type { ClickHouseMigration } from './migration.js';

/**
 * A `files` map of string values in JSON text: `"files": {"name": "<digest>", ...}`, strings with
 * escapes included. The stores index the `files` of `CustomWeaveType` objects (core/fileRefs.ts);
 * SQL cannot walk JSON to any depth here, so the backfill takes every such map, a superset: an
 * extra reference only keeps a file longer.
 */
const FILES_MAP = String.raw`"files"\s*:\s*(\{\s*(?:"(?:[^"\\]|\\.)*"\s*:\s*"(?:[^"\\]|\\.)*"\s*,?\s*)*\})`;
const literal = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** The digests of the `files` maps in a JSON text expression, one row each. */
const digestsOf = (text: string) =>
  `arrayJoin(arrayDistinct(arrayFlatten(arrayMap(m -> mapValues(JSONExtract(m, 'Map(String, String)')), extractAll(${text}, ${literal(FILES_MAP)})))))`;

/** A reference's expiry as TTL wants it (as migration 15 for calls): NULL is never. */
const EXPIRY = 'toDateTime(intDiv(ifNull(expire_at, 4102444800000000), 1000000))';

export const v18FileRefs: ClickHouseMigration = {
  version: 18,
  name: 'file reference index and file expiry',
  statements: [
    // The file digests each call refers to, written before the call, sharded and ordered like
    // calls. The retention sweep writes a call's rows again with expire_at (the later row wins),
    // which hides them at once and hands them to TTL (docs/operations/retention.md "Files").
    `CREATE TABLE IF NOT EXISTS call_file_refs (project_id String, id String, digest String, expire_at Nullable(Int64),
        INDEX i_digest digest TYPE bloom_filter GRANULARITY 1
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, id, digest)
      TTL ${EXPIRY} DELETE`,
    // The file digests object versions (kind 'object', holder `<object_id>:<digest>`) and table
    // rows ('row', the row's digest) refer to; never expired, as objects and tables are not.
    `CREATE TABLE IF NOT EXISTS object_file_refs (project_id String, digest String, kind String, holder String)
      ENGINE = ReplacingMergeTree ORDER BY (project_id, digest, kind, holder)`,
    // A file the sweep removed: its files row again, ranked above every copy, with expired_at set.
    'ALTER TABLE files ADD COLUMN IF NOT EXISTS expired_at Nullable(Int64)',
    // Calls already expired (waiting for their TTL) are left out.
    `INSERT INTO call_file_refs (project_id, id, digest) SELECT project_id, id, ${digestsOf("concat(ifNull(inputs, ''), ' ', ifNull(output, ''))")} AS d
      FROM calls FINAL WHERE expire_at IS NULL AND (position(ifNull(inputs, ''), 'CustomWeaveType') > 0 OR position(ifNull(output, ''), 'CustomWeaveType') > 0)`,
    `INSERT INTO object_file_refs (project_id, digest, kind, holder) SELECT project_id, ${digestsOf('val')} AS d, 'object', concat(object_id, ':', digest)
      FROM object_versions WHERE position(val, 'CustomWeaveType') > 0`,
    `INSERT INTO object_file_refs (project_id, digest, kind, holder) SELECT project_id, ${digestsOf('val')} AS d, 'row', digest
      FROM table_rows WHERE position(val, 'CustomWeaveType') > 0`,
  ],
};
