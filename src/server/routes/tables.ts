/** Table endpoints: thin maps from endpoint name to domain and store calls. */
import { losslessAt, losslessBody } from '../domain/objects/losslessJson.js';
import { createTable, createTableFromDigests, queryTable, updateTable } from '../domain/objects/tables.js';
import { defineRoutes } from '../http/defineRoutes.js';

/** A list in the request body, re-read losslessly so row digests see `1.0` as written. */
function losslessList(rawBody: string | null, parsed: unknown, path: string[]) {
  const list = losslessAt(losslessBody(rawBody, parsed), path);
  return Array.isArray(list) ? list : [];
}

export const tableRoutes = defineRoutes({
  tableCreate: {
    runs: 'write',
    projects: (input) => [input.table.project_id],
    handler: (req, { store, clock, rawBody }) =>
      createTable(store, {
        projectId: req.table.project_id,
        rows: losslessList(rawBody, req, ['table', 'rows']),
        expectedDigest: req.table.expected_digest,
        now: clock.nowMicros(),
      }),
  },

  tableCreateFromDigests: {
    runs: 'write',
    handler: (req, { store, clock }) =>
      createTableFromDigests(store, {
        projectId: req.project_id,
        rowDigests: req.row_digests,
        expectedDigest: req.expected_digest,
        now: clock.nowMicros(),
      }),
  },

  tableUpdate: {
    runs: 'write',
    handler: (req, { store, clock, rawBody }) =>
      updateTable(store, {
        projectId: req.project_id,
        baseDigest: req.base_digest,
        updates: losslessList(rawBody, req, ['updates']),
        now: clock.nowMicros(),
      }),
  },

  tableQuery: {
    runs: 'read',
    handler: async (req, { store }) => {
      const rows = [];
      for await (const row of queryTable(store, req)) rows.push(row);
      return { rows };
    },
  },

  tableQueryStream: {
    runs: 'read',
    handler: (req, { store }) => queryTable(store, req),
  },

  tableQueryStats: {
    runs: 'read',
    handler: async (req, { store }) => {
      const [stats] = await store.tables.tableStats({ projectId: req.project_id, digests: [req.digest], includeStorageSize: false });
      // An unknown table counts 0 rows, as in the newest reference (older builds errored).
      return { count: stats?.count ?? 0 };
    },
  },

  tableQueryStatsBatch: {
    runs: 'read',
    handler: async (req, { store }) => {
      const stats = await store.tables.tableStats({
        projectId: req.project_id,
        digests: req.digests ?? [],
        includeStorageSize: req.include_storage_size ?? false,
      });
      return { tables: stats.map((s) => ({ digest: s.digest, count: s.count, storage_size_bytes: s.storageSizeBytes })) };
    },
  },
});
