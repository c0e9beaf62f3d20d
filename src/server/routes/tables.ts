/** Table endpoints: thin maps from endpoint name to domain and store calls. */
import { losslessAt, losslessBody } from '../domain/objects/losslessJson.js';
import { createTable, createTableFromDigests, queryTable, updateTable } from '../domain/objects/tables.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { redactRows } from '../domain/redaction/apply.js';
import type { LosslessValue } from '../domain/objects/losslessJson.js';

const ROW_PATHS = [
  ['append', 'row'],
  ['insert', 'row'],
] as const;

/**
 * table/update's specs with the rows they add redacted. Only the rows: a key rule never touches
 * the spec's own `append`, `insert` or `index`.
 */
async function redactUpdates(store: Parameters<typeof redactRows>[0], projectId: string, updates: LosslessValue[]) {
  return Promise.all(
    updates.map(async (spec) => {
      for (const [op, field] of ROW_PATHS) {
        const inner = losslessAt(spec, [op]);
        if (!(inner instanceof Map) || !inner.has(field)) continue;
        const { rows, changed } = await redactRows(store, projectId, [inner.get(field)!]);
        if (!changed) return spec;
        return new Map([...(spec as Map<string, LosslessValue>)]).set(op, new Map(inner).set(field, rows[0]!));
      }
      return spec;
    }),
  );
}

/** A list in the request body, re-read losslessly so row digests see `1.0` as written. */
function losslessList(rawBody: string | null, parsed: unknown, path: string[]) {
  const list = losslessAt(losslessBody(rawBody, parsed), path);
  return Array.isArray(list) ? list : [];
}

export const tableRoutes = defineRoutes({
  tableCreate: {
    runs: 'write',
    projects: (input) => [input.table.project_id],
    handler: async (req, { store, clock, rawBody }) => {
      // Redacted before the digests are taken, so the stored rows match them; the client's
      // expected digest then describes rows that are not stored, and is not checked
      // (docs/security/redaction.md "Digests").
      const { rows, changed } = await redactRows(store, req.table.project_id, losslessList(rawBody, req, ['table', 'rows']));
      return createTable(store, {
        projectId: req.table.project_id,
        rows,
        expectedDigest: changed ? null : req.table.expected_digest,
        now: clock.nowMicros(),
      });
    },
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
    handler: async (req, { store, clock, rawBody }) =>
      updateTable(store, {
        projectId: req.project_id,
        baseDigest: req.base_digest,
        updates: await redactUpdates(store, req.project_id, losslessList(rawBody, req, ['updates'])),
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
