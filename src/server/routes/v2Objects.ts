/**
 * v2 object endpoints (ops, datasets, scorers, models, evaluations under
 * `/v2/:entity/:project/<kind>`): thin maps onto domain/objects/v2ObjectCreate.ts and v2ObjectRead.ts.
 * The project is the two path segments, and that is what gets access-checked.
 */
import { losslessBody } from '../domain/objects/losslessJson.js';
import {
  createDataset,
  createEvaluation,
  createModel,
  createOp,
  createScorer,
  type CreateContext,
} from '../domain/objects/v2ObjectCreate.js';
import { deleteV2, listV2, readV2, type V2Kind } from '../domain/objects/v2ObjectRead.js';
import type { AuthUser } from '../auth/authenticate.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor, type AuditContext } from '../audit/auditTrail.js';
import type { Store } from '../store/Store.js';
import type { Clock } from '../core/clock.js';

type PathInput = { entity: string; project: string };

/** The project a `/v2/:entity/:project/...` request is about. */
export const v2ProjectId = (input: PathInput): string => `${input.entity}/${input.project}`;
/** `projects` of every v2 route: the path's project is access-checked (403). */
export const v2Projects = (input: PathInput): string[] => [v2ProjectId(input)];

const createContext = (
  input: PathInput,
  { user, clock, rawBody }: { user: AuthUser; clock: Clock; rawBody: string | null },
): CreateContext => ({
  projectId: v2ProjectId(input),
  userId: user.username,
  now: clock.nowMicros(),
  body: losslessBody(rawBody, input),
});

type Ctx = { store: Store; clock: Clock } & AuditContext;

/** List, read and delete of one kind. */
function kindRoutes<K extends V2Kind>(kind: K) {
  return {
    list: {
      runs: 'read' as const,
      projects: v2Projects,
      handler: (req: PathInput & { limit?: number | null; offset?: number | null }, { store }: Ctx) =>
        listV2(store, kind, { projectId: v2ProjectId(req), limit: req.limit, offset: req.offset }),
    },
    read: {
      runs: 'read' as const,
      projects: v2Projects,
      handler: (req: PathInput & { object_id: string; digest: string }, { store }: Ctx) =>
        readV2(store, kind, { projectId: v2ProjectId(req), objectId: req.object_id, digest: req.digest }),
    },
    delete: {
      runs: 'write' as const,
      projects: v2Projects,
      handler: async (req: PathInput & { object_id: string; digests?: string[] | null }, ctx: Ctx) => {
        const projectId = v2ProjectId(req);
        const num_deleted = await deleteV2(ctx.store, kind, {
          projectId,
          objectId: req.object_id,
          digests: req.digests,
          now: ctx.clock.nowMicros(),
        });
        const target = `${projectId}/${req.object_id}`;
        await recordFor(ctx, {
          action: 'objects.deleted',
          target,
          entity: entityOf(projectId),
          projectId,
          details: { kind, deleted: num_deleted },
        });
        return { num_deleted };
      },
    },
  };
}

const ops = kindRoutes('op');
const datasets = kindRoutes('dataset');
const scorers = kindRoutes('scorer');
const models = kindRoutes('model');
const evaluations = kindRoutes('evaluation');

export const v2ObjectRoutes = defineRoutes({
  opCreate: { runs: 'write', projects: v2Projects, handler: (req, context) => createOp(context.store, createContext(req, context), req) },
  opList: ops.list,
  opRead: ops.read,
  opDelete: ops.delete,

  datasetCreate: {
    runs: 'write',
    projects: v2Projects,
    handler: (req, context) => createDataset(context.store, createContext(req, context), req),
  },
  datasetList: datasets.list,
  datasetRead: datasets.read,
  datasetDelete: datasets.delete,

  scorerCreate: {
    runs: 'write',
    projects: v2Projects,
    handler: (req, context) => createScorer(context.store, createContext(req, context), req),
  },
  scorerList: scorers.list,
  scorerRead: scorers.read,
  scorerDelete: scorers.delete,

  modelCreate: {
    runs: 'write',
    projects: v2Projects,
    handler: (req, context) => createModel(context.store, createContext(req, context), req),
  },
  modelList: models.list,
  modelRead: models.read,
  modelDelete: models.delete,

  evaluationCreate: {
    runs: 'write',
    projects: v2Projects,
    handler: (req, context) => createEvaluation(context.store, createContext(req, context), req),
  },
  evaluationList: evaluations.list,
  evaluationRead: evaluations.read,
  evaluationDelete: evaluations.delete,
});
