/** Call endpoints: thin maps from endpoint name to domain and store calls. */
import { nowMicros } from '../core/datetime.js';
import { toEndWrite, toStartWrite, withWeaveSummary } from '../domain/calls.js';
import { BadRequestError, TooLargeError } from '../errors.js';
import { defineRoutes } from '../http/defineRoutes.js';
import type { CallWrite } from '../store/Store.js';
import { queryCalls } from '../domain/callsQuery.js';
import { addCallExtras } from '../domain/callExtras.js';

const MAX_DELETE_IDS = 1000;

export const callRoutes = defineRoutes({
  callStart: {
    projects: (input) => [input.start.project_id],
    handler: async ({ start }, { store, user }) => {
      const write = toStartWrite(start, user.username);
      await store.calls.writeCalls([write]);
      return { id: write.id, trace_id: write.traceId };
    },
  },

  callEnd: {
    projects: (input) => [input.end.project_id],
    handler: async ({ end }, { store }) => {
      await store.calls.writeCalls([toEndWrite(end)]);
      return {};
    },
  },

  callUpsertBatch: {
    projects: (input) => input.batch.map((item) => (item.mode === 'start' ? item.req.start.project_id : item.req.end.project_id)),
    handler: async ({ batch }, { store, user }) => {
      const writes: CallWrite[] = batch.map((item) =>
        item.mode === 'start' ? toStartWrite(item.req.start, user.username) : toEndWrite(item.req.end),
      );
      await store.calls.writeCalls(writes);
      return { res: writes.map((w) => (w.kind === 'start' ? { id: w.id, trace_id: w.traceId } : ({} as Record<string, never>))) };
    },
  },

  callRead: {
    handler: async (req, { store }) => {
      const call = await store.calls.readCall({
        projectId: req.project_id,
        id: req.id,
        includeStorageSize: req.include_storage_size ?? false,
        includeTotalStorageSize: req.include_total_storage_size ?? false,
      });
      if (!call) return { call: null };
      const extras = { includeCosts: req.include_costs ?? false, includeFeedback: req.include_feedback ?? false };
      const [withExtras] = await addCallExtras(store, req.project_id, [withWeaveSummary(call)], extras);
      return { call: withExtras! };
    },
  },

  callUpdate: {
    handler: async (req, { store }) => {
      if (req.display_name == null) throw new BadRequestError('display_name is the only updatable field and must not be null');
      await store.calls.updateCallDisplayName({ projectId: req.project_id, id: req.call_id, displayName: req.display_name });
      return {};
    },
  },

  callsDelete: {
    handler: async (req, { store }) => {
      if (req.call_ids.length > MAX_DELETE_IDS) {
        throw new TooLargeError(`Cannot delete more than ${MAX_DELETE_IDS} calls at once; send them in smaller batches`);
      }
      const num_deleted = await store.calls.deleteCalls({ projectId: req.project_id, ids: req.call_ids, deletedAt: nowMicros() });
      return { num_deleted };
    },
  },

  callsQueryStats: {
    handler: async (req, { store }) => {
      if (req.limit != null && req.limit < 1) throw new BadRequestError('limit must be at least 1');
      const query = { projectId: req.project_id, filter: req.filter, query: req.query, limit: req.limit };
      const count = await store.calls.countCalls(query);
      const total_storage_size_bytes = req.include_total_storage_size ? await store.calls.totalStorageSize(query) : null;
      return { count, total_storage_size_bytes };
    },
  },

  callsStreamQuery: {
    handler: (req, { store }) => queryCalls(store, req),
  },
});
