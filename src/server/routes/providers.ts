/** Weft's model-provider, model-list and background-job endpoints (`/weft/providers`, `/weft/models`, `/weft/jobs`). */
import type { JobRead } from '../../contract/providers.js';
import { formatMicros, formatMicrosOrNull } from '../core/datetime.js';
import {
  createProvider,
  deleteProvider,
  instanceProviderRead,
  testProvider,
  toProviderRead,
  updateProvider,
} from '../domain/llm/providers.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor, type AuditContext } from '../audit/auditTrail.js';
import { NotFoundError } from '../errors.js';
import { NO_PROVIDER_HELP } from '../providers/providerRegistry.js';
import type { JobRecord } from '../store/JobsStore.js';

export const toJobRead = (j: JobRecord): JobRead => ({
  id: j.id,
  project_id: j.projectId,
  kind: j.kind,
  status: j.status,
  progress_done: j.progressDone,
  progress_total: j.progressTotal,
  error: j.error,
  result: j.result,
  attempts: j.attempts,
  cancel_requested: j.cancelRequested,
  payload: j.payload,
  created_by: j.createdBy,
  created_at: formatMicros(j.createdAt),
  started_at: formatMicrosOrNull(j.startedAt),
  finished_at: formatMicrosOrNull(j.finishedAt),
});

export const providerRoutes = defineRoutes({
  providersList: {
    runs: 'main',
    handler: async (req, { store, inference, user }) => {
      const own = (await store.providers.listProviders(req.project_id)).map(toProviderRead);
      const instance = inference.registry.instanceProviders
        .filter((p) => !own.some((o) => o.name === p.name))
        .map((p) => instanceProviderRead(p, user));
      return { providers: [...own, ...instance] };
    },
  },

  providerCreate: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, clock } = ctx;
      const provider = await createProvider(
        { store, registry: inference.registry, userId: user.username, isAdmin: user.isAdmin, now: clock.nowMicros() },
        req,
      );
      await recordProvider(ctx, req.project_id, provider.id, { change: 'created', name: provider.name, key_set: req.api_key != null });
      return { provider };
    },
  },

  providerUpdate: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, clock, user } = ctx;
      const provider = await updateProvider({ store, registry: inference.registry, isAdmin: user.isAdmin, now: clock.nowMicros() }, req);
      await recordProvider(ctx, req.project_id, provider.id, { change: 'changed', name: provider.name, key_changed: req.api_key != null });
      return { provider };
    },
  },

  providerDelete: {
    runs: 'main',
    handler: async (req, ctx) => {
      const deleted = await deleteProvider(ctx.store, req);
      if (deleted) await recordProvider(ctx, req.project_id, req.provider_id, { change: 'deleted' });
      return { deleted };
    },
  },

  providerTest: {
    runs: 'main',
    handler: (req, { store, inference }) => testProvider({ store, registry: inference.registry }, req),
  },

  modelsList: {
    runs: 'main',
    handler: async (req, { store, inference }) => {
      const { models, errors } = await inference.registry.listModels(req.project_id);
      const configured = inference.registry.hasInstanceProvider() || (await store.providers.listProviders(req.project_id)).length > 0;
      return {
        models: models.map((m) => ({
          id: m.id,
          provider: m.provider,
          model: m.model,
          source: m.source,
          prompt_token_cost: m.promptTokenCost,
          completion_token_cost: m.completionTokenCost,
          context_length: m.contextLength,
          max_output_tokens: m.maxOutputTokens,
        })),
        configured,
        help: configured ? null : NO_PROVIDER_HELP,
        errors,
      };
    },
  },

  jobsList: {
    runs: 'main',
    handler: async (req, { store }) => ({
      jobs: (await store.jobs.listJobs({ projectId: req.project_id, kind: req.kind, limit: req.limit })).map(toJobRead),
    }),
  },

  jobRead: {
    runs: 'main',
    handler: async (req, { store }) => {
      const job = await store.jobs.getJob({ projectId: req.project_id, id: req.job_id });
      if (!job) throw new NotFoundError(`Job ${req.job_id} not found`);
      return { job: toJobRead(job) };
    },
  },

  jobCancel: {
    runs: 'main',
    handler: async (req, { store, clock }) => {
      const job = await store.jobs.requestCancel({ projectId: req.project_id, id: req.job_id, now: clock.nowMicros() });
      if (!job) throw new NotFoundError(`Job ${req.job_id} not found`);
      return { job: toJobRead(job) };
    },
  },
});

/** A provider change as an audit row: what changed and whether a key was given, never the key. */
function recordProvider(
  ctx: AuditContext,
  projectId: string,
  providerId: string,
  details: Record<string, string | boolean>,
): Promise<void> {
  return recordFor(ctx, { action: 'provider.changed', target: providerId, entity: entityOf(projectId), projectId, details });
}
