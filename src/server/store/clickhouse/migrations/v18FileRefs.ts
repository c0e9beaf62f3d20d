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
    // Which call (kind 'call', holder its id), object version ('object', `<object_id>:<digest>`)
    // or table row ('row', its digest) refers to which file digest, written before the payload.
    // The retention sweep writes a call's rows again with expire_at (the later row wins), which
    // hides them at once and hands them to TTL (docs/operations/retention.md "Files").
    `CREATE TABLE IF NOT EXISTS file_refs (project_id String, digest String, kind String, holder String, expire_at Nullable(Int64),
        INDEX i_holder holder TYPE bloom_filter GRANULARITY 1
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, digest, kind, holder)
      TTL ${EXPIRY} DELETE`,
    // A file the sweep removed: its files row again, ranked above every copy, with expired_at set.
    'ALTER TABLE files ADD COLUMN IF NOT EXISTS expired_at Nullable(Int64)',
    // Calls already expired (waiting for their TTL) are left out.
    `INSERT INTO file_refs (project_id, digest, kind, holder)
      SELECT project_id, ${digestsOf("concat(ifNull(inputs, ''), ' ', ifNull(output, ''))")} AS d, 'call', id
      FROM calls FINAL WHERE expire_at IS NULL AND (position(ifNull(inputs, ''), 'CustomWeaveType') > 0 OR position(ifNull(output, ''), 'CustomWeaveType') > 0)`,
    `INSERT INTO file_refs (project_id, digest, kind, holder)
      SELECT project_id, ${digestsOf('val')} AS d, 'object', concat(object_id, ':', digest)
      FROM object_versions WHERE position(val, 'CustomWeaveType') > 0`,
    `INSERT INTO file_refs (project_id, digest, kind, holder)
      SELECT project_id, ${digestsOf('val')} AS d, 'row', digest
      FROM table_rows WHERE position(val, 'CustomWeaveType') > 0`,
  ],
};
