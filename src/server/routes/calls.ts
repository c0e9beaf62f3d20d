/** Call endpoints: thin maps from endpoint name to domain and store calls. */
import { toCompleteWrites, toEndWrite, toStartWrite, withWeaveSummary } from '../domain/calls/calls.js';
import { BadRequestError, TooLargeError } from '../errors.js';
import { CallEndReq, CallStartReq, CallUpsertBatchReq, type CallSchema } from '../../contract/calls.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor } from '../audit/auditTrail.js';
import { fastValidator } from '../http/fastValidator.js';
import type { CallWrite } from '../store/Store.js';
import { queryCalls } from '../domain/calls/callsQuery.js';
import { addCallExtras } from '../domain/calls/callExtras.js';
import { traceOutline, traceOutlineLines } from '../domain/calls/traceOutline.js';
import { callPayloadPart, callPreview } from '../domain/calls/callPreview.js';
import { metrics } from '../metrics/hooks.js';
import { redactCallWrites } from '../domain/redaction/apply.js';

const MAX_DELETE_IDS = 1000;

type V2Path = { entity: string; project: string };
const pathProject = (p: V2Path) => `${p.entity}/${p.project}`;

/**
 * The v2 write routes name their project twice, in the path and in each call. Both are
 * access-checked; a call for another project than the path's is refused (400) rather than
 * silently written elsewhere than the URL says.
 */
function checkSameProject(path: V2Path, projectIds: string[]): void {
  const expected = pathProject(path);
  const other = projectIds.find((id) => id !== expected);
  if (other !== undefined) throw new BadRequestError(`Call project ${other} does not match the path's project ${expected}`);
}

export const callRoutes = defineRoutes({
  callStart: {
    runs: 'write',
    fastInput: fastValidator(CallStartReq),
    projects: (input) => [input.start.project_id],
    handler: async ({ start }, { store, user }) => {
      const write = toStartWrite(start, user.username);
      await redactCallWrites(store, [write]);
      await store.applyLast([{ kind: 'calls.write', calls: [write] }]);
      metrics.ingested('sdk', 1, 0);
      return { id: write.id, trace_id: write.traceId };
    },
  },

  callEnd: {
    runs: 'write',
    fastInput: fastValidator(CallEndReq),
    projects: (input) => [input.end.project_id],
    handler: async ({ end }, { store }) => {
      const write = toEndWrite(end);
      await redactCallWrites(store, [write]);
      await store.applyLast([{ kind: 'calls.write', calls: [write] }]);
      metrics.ingested('sdk', 0, 1);
      return {};
    },
  },

  callUpsertBatch: {
    runs: 'write',
    fastInput: fastValidator(CallUpsertBatchReq),
    projects: (input) => input.batch.map((item) => (item.mode === 'start' ? item.req.start.project_id : item.req.end.project_id)),
    handler: async ({ batch }, { store, user }) => {
      const writes: CallWrite[] = batch.map((item) =>
        item.mode === 'start' ? toStartWrite(item.req.start, user.username) : toEndWrite(item.req.end),
      );
      await redactCallWrites(store, writes);
      await store.applyLast([{ kind: 'calls.write', calls: writes }]);
      const starts = writes.filter((w) => w.kind === 'start').length;
      metrics.ingested('sdk', starts, writes.length - starts);
      return { res: writes.map((w) => (w.kind === 'start' ? { id: w.id, trace_id: w.traceId } : ({} as Record<string, never>))) };
    },
  },

  callRead: {
    runs: 'read',
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
    runs: 'write',
    handler: async (req, { store }) => {
      if (req.display_name == null) throw new BadRequestError('display_name is the only updatable field and must not be null');
      await store.calls.updateCallDisplayName({ projectId: req.project_id, id: req.call_id, displayName: req.display_name });
      return {};
    },
  },

  callsDelete: {
    runs: 'write',
    handler: async (req, ctx) => {
      if (req.call_ids.length > MAX_DELETE_IDS) {
        throw new TooLargeError(`Cannot delete more than ${MAX_DELETE_IDS} calls at once; send them in smaller batches`);
      }
      const num_deleted = await ctx.store.calls.deleteCalls({
        projectId: req.project_id,
        ids: req.call_ids,
        deletedAt: ctx.clock.nowMicros(),
      });
      const where = { target: req.project_id, entity: entityOf(req.project_id), projectId: req.project_id };
      await recordFor(ctx, { action: 'calls.deleted', ...where, details: { requested: req.call_ids.length, deleted: num_deleted } });
      return { num_deleted };
    },
  },

  callsQueryStats: {
    runs: 'read',
    handler: async (req, { store }) => {
      if (req.limit != null && req.limit < 1) throw new BadRequestError('limit must be at least 1');
      const query = {
        projectId: req.project_id,
        filter: req.filter,
        query: req.query,
        limit: req.limit,
        expandColumns: req.expand_columns,
      };
      const count = await store.calls.countCalls(query);
      const total_storage_size_bytes = req.include_total_storage_size ? await store.calls.totalStorageSize(query) : null;
      return { count, total_storage_size_bytes };
    },
  },

  callsStreamQuery: {
    runs: 'read',
    handler: (req, { store }) => queryCalls(store, req),
  },

  traceOutline: {
    runs: 'read',
    handler: (req, { store }) => traceOutline(store, req),
  },

  traceOutlineStream: {
    runs: 'read',
    handler: (req, { store }) => traceOutlineLines(store, req),
  },

  callPreview: {
    runs: 'read',
    handler: (req, { store }) => callPreview(store, req),
  },

  callPayloadPart: {
    runs: 'read',
    handler: (req, { store }) => callPayloadPart(store, req),
  },

  // The legacy non-streaming query: the same calls, gathered into `{calls: [...]}`.
  callsQuery: {
    runs: 'write',
    handler: async (req, { store }) => {
      const calls: CallSchema[] = [];
      for await (const call of queryCalls(store, req)) calls.push(call);
      return { calls };
    },
  },

  // "Calls complete" mode (the newest Python client): finished calls in one batch, stored as
  // the start and end each amounts to, in one transaction.
  callsComplete: {
    runs: 'write',
    projects: (input) => [pathProject(input), ...input.batch.map((c) => c.project_id)],
    handler: async (req, { store, user }) => {
      checkSameProject(
        req,
        req.batch.map((c) => c.project_id),
      );
      const writes = req.batch.flatMap((call) => toCompleteWrites(call, user.username));
      await redactCallWrites(store, writes);
      await store.applyLast([{ kind: 'calls.write', calls: writes }]);
      metrics.ingested('sdk', req.batch.length, req.batch.length);
      return {};
    },
  },

  // Its eager path: a call that must show while it runs is started and ended separately.
  callStartV2: {
    runs: 'write',
    projects: (input) => [pathProject(input), input.start.project_id],
    handler: async (req, { store, user }) => {
      checkSameProject(req, [req.start.project_id]);
      const write = toStartWrite(req.start, user.username);
      await redactCallWrites(store, [write]);
      await store.applyLast([{ kind: 'calls.write', calls: [write] }]);
      metrics.ingested('sdk', 1, 0);
      return { id: write.id, trace_id: write.traceId };
    },
  },

  callEndV2: {
    runs: 'write',
    projects: (input) => [pathProject(input), input.end.project_id],
    handler: async (req, { store }) => {
      checkSameProject(req, [req.end.project_id]);
      const write = toEndWrite(req.end);
      await redactCallWrites(store, [write]);
      await store.applyLast([{ kind: 'calls.write', calls: [write] }]);
      metrics.ingested('sdk', 0, 1);
      return {};
    },
  },
});
