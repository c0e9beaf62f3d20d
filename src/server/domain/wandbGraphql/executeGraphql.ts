/**
 * Runs one W&B GraphQL request with graphql-js and shapes the answer the way W&B's clients
 * read it (docs/api/wandb-graphql.md §2, §7):
 *
 * - every answer is JSON with `data` and/or `errors` — the Python client (gql) then raises a
 *   GraphQL error with our message instead of a bare transport error after retries;
 * - wrong or missing credentials: 401 with `errors[0].extensions.code = "UNAUTHENTICATED"`; a
 *   throttled or saturated check 429/503 with `Retry-After` (code RATE_LIMITED / SERVICE_UNAVAILABLE)
 *   (npm: "HTTP error! status: 401"; Python: "Could not determine a W&B entity…" or
 *   "Unable to access `e/p`." plus our message; `wandb`: its authentication error, no retry);
 * - parse and validation errors (an unknown field, say) and resolver errors: 200 with `errors`,
 *   as W&B answers them; a 4xx would make recent `wandb` clients retry, and all three clients
 *   read `errors` from a 200.
 */
import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import type { AuthUser, Authenticator } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { rootResolvers } from './resolvers.js';
import { wandbSchema } from './schema.js';

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface GraphqlAnswer {
  status: number;
  /** Headers the answer must carry (`Retry-After` on 429/503). */
  headers?: Record<string, string>;
  body: ExecutionResult;
}

/** The SDKs' documents have well under 200 tokens; the cap bounds the work a hostile one can cause. */
const MAX_TOKENS = 2000;

/** Authenticates `authorization` and runs `req`; never throws for anything a client can send. */
export async function executeWandbGraphql(deps: {
  store: Store;
  authenticator: Authenticator;
  authorization: string | null;
  /** The client's address, for failed-login throttling (auth/loginThrottle.ts). */
  address?: string;
  origin: string;
  req: GraphqlRequest;
  /** Hears resolver failures that are Weft's fault (a store error), for the log. */
  onInternalError?: (err: Error) => void;
  /** Told when `upsertModel` creates a project (the audit log's `project.created`). */
  onProjectCreated?: (projectId: string, user: AuthUser) => Promise<void>;
}): Promise<GraphqlAnswer> {
  let user: AuthUser;
  try {
    user = await deps.authenticator.authenticate(deps.authorization, { address: deps.address });
  } catch (err) {
    // A throttled (429) or saturated (503) check is not "wrong credentials": it keeps its status
    // and Retry-After, as everywhere else in the API, so a client waits instead of giving up on a
    // key that may be right. The code names the cause for GraphQL clients reading `errors`.
    if (err instanceof ApiError && (err.status === 429 || err.status === 503)) {
      const code = err.status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE';
      const error = new GraphQLError(err.message, { extensions: { code, ...err.extra } });
      return { status: err.status, headers: err.headers, body: { data: null, errors: [error] } };
    }
    const message = deps.authorization ? (err as Error).message : 'No credentials: send HTTP Basic api:<your Weft API key>';
    return { status: 401, body: { data: null, errors: [new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' } })] } };
  }
  const record = await deps.store.accounts.getUser(user.username);
  if (!record) {
    const gone = new GraphQLError('The user behind these credentials no longer exists', { extensions: { code: 'UNAUTHENTICATED' } });
    return { status: 401, body: { data: null, errors: [gone] } };
  }

  let document: DocumentNode;
  try {
    document = parse(deps.req.query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { status: 200, body: { errors: [withCode(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')] } };
  }
  const invalid = validate(wandbSchema(), document);
  if (invalid.length > 0) return { status: 200, body: { errors: invalid.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) } };

  const result = await execute({
    schema: wandbSchema(),
    document,
    rootValue: rootResolvers,
    contextValue: { store: deps.store, user, record, origin: deps.origin, onProjectCreated: deps.onProjectCreated },
    variableValues: deps.req.variables ?? undefined,
    operationName: deps.req.operationName ?? undefined,
  });
  if (!result.errors) return { status: 200, body: result };
  // Errors without a code are variable coercion failures (the request's fault) or an unexpected
  // throw (ours, logged). Either way the client shows the message; a 500 would only make Python retry.
  const errors = result.errors.map((e) => {
    const internal = e.originalError !== undefined && !(e.originalError instanceof GraphQLError);
    if (internal) deps.onInternalError?.(e.originalError!);
    return withCode(e, internal ? 'INTERNAL_SERVER_ERROR' : 'BAD_USER_INPUT');
  });
  return { status: 200, body: { ...result, errors } };
}

/** The error with `extensions.code` set, unless it already has one. */
function withCode(err: GraphQLError, code: string): GraphQLError {
  if (!(err instanceof GraphQLError)) return new GraphQLError(String((err as Error)?.message ?? err), { extensions: { code } });
  if (err.extensions?.code) return err;
  return new GraphQLError(err.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    path: err.path,
    originalError: err.originalError,
    extensions: { ...err.extensions, code },
  });
}
