/**
 * Every route group in one table, typed total: it must hold a handler for every endpoint of
 * `contract/endpoints.ts` except the ones listed in SERVED_ELSEWHERE, so adding an endpoint
 * without its handler fails to compile (allRoutes.test.ts shows it), and two groups handling
 * the same endpoint fail at start-up.
 */
import type { EndpointName } from '../../contract/endpoints.js';
import { readingOwnWrites, type RouteTable, type TotalRouteTable } from '../http/defineRoutes.js';
import { accountRoutes } from './accounts.js';
import { alertRoutes } from './alerts.js';
import { annotationQueueRoutes } from './annotationQueues.js';
import { auditRoutes } from './audit.js';
import { callRoutes } from './calls.js';
import { completionRoutes } from './completions.js';
import { costRoutes } from './costs.js';
import { datasetAddRoutes } from './datasetAdd.js';
import { evaluationRunRoutes } from './evaluationRuns.js';
import { evaluationJobRoutes, evaluationRoutes } from './evaluations.js';
import { exportRoutes } from './export.js';
import { feedbackRoutes } from './feedback.js';
import { fileRoutes } from './files.js';
import { graphqlRoutes } from './graphql.js';
import { inferenceRoutes } from './inference.js';
import { mcpRoutes } from './mcp.js';
import { objectRoutes } from './objects.js';
import { oidcRoutes } from './oidc.js';
import { otelRoutes } from './otel.js';
import { providerRoutes } from './providers.js';
import { redactionRoutes } from './redaction.js';
import { refRoutes } from './refs.js';
import { retentionRoutes } from './retention.js';
import { serviceRoutes } from './service.js';
import { sessionRoutes } from './sessions.js';
import { statsRoutes } from './stats.js';
import { tableRoutes } from './tables.js';
import { threadRoutes } from './threads.js';
import { v2ObjectRoutes } from './v2Objects.js';

/**
 * Endpoints of the table that no route group serves, on purpose. None today: GraphQL is a
 * route group (graphql.ts), and the dashboard, `/openapi.json` and `/docs` are not endpoints
 * of the table (app.ts mounts them). An entry here needs a comment saying who serves it.
 */
export const SERVED_ELSEWHERE = [] as const satisfies readonly EndpointName[];
export type ServedElsewhere = (typeof SERVED_ELSEWHERE)[number];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The groups' handlers as one table; an endpoint handled twice is an error, not a silent override. */
export function combineRoutes<const T extends readonly RouteTable[]>(groups: T): Intersection<T[number]> {
  const all: Record<string, unknown> = {};
  for (const group of groups) {
    for (const [name, route] of Object.entries(group)) {
      if (name in all) throw new Error(`Endpoint ${name} has a handler in two route groups`);
      all[name] = route;
    }
  }
  return all as Intersection<T[number]>;
}

export const allRoutes: TotalRouteTable<ServedElsewhere> = combineRoutes([
  alertRoutes,
  serviceRoutes,
  callRoutes,
  statsRoutes,
  exportRoutes,
  threadRoutes,
  feedbackRoutes,
  costRoutes,
  otelRoutes,
  objectRoutes,
  tableRoutes,
  fileRoutes,
  refRoutes,
  annotationQueueRoutes,
  // A client creates objects, then a run, its predictions and scores, each read back by its
  // next request through any replica (docs/clickhouse.md "Read-your-writes on a replicated cluster").
  readingOwnWrites(v2ObjectRoutes),
  readingOwnWrites(evaluationRunRoutes),
  evaluationRoutes,
  evaluationJobRoutes,
  accountRoutes,
  completionRoutes,
  inferenceRoutes,
  providerRoutes,
  sessionRoutes,
  graphqlRoutes,
  redactionRoutes,
  auditRoutes,
  oidcRoutes,
  retentionRoutes,
  mcpRoutes,
  datasetAddRoutes,
]);
