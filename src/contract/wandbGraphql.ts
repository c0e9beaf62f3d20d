/**
 * `POST /graphql`: the small part of W&B's GraphQL API that the Weave SDKs call before their
 * first trace (viewer and default entity, project lookup and creation; see
 * docs/api/wandb-graphql.md). Not a trace-server endpoint: it lives at the W&B base URL, and
 * every answer to a JSON body with a `query`, failures included (a bad key: 401), is a GraphQL
 * result `{data, errors}`, as W&B's clients expect; a body without one gets the usual 422.
 */
import { z } from 'zod';

// POST /graphql
export const WandbGraphqlReq = z.object({
  query: z.string().min(1).describe('The GraphQL document (one operation; the SDKs never batch)'),
  variables: z.record(z.string(), z.unknown()).nullish().describe('Omitted by the Python SDK when the operation has none'),
  operationName: z.string().nullish(),
});

/** One GraphQL error, as graphql-js formats it; `extensions.code` is what the SDKs branch on. */
export const GraphqlError = z.object({
  message: z.string(),
  locations: z.array(z.object({ line: z.number(), column: z.number() })).optional(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
  extensions: z
    .object({ code: z.string().optional().describe('UNAUTHENTICATED, PERMISSION_ERROR, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT') })
    .catchall(z.unknown())
    .optional(),
});

export const WandbGraphqlRes = z.object({
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  errors: z.array(GraphqlError).optional().describe('Present when anything failed; 401 answers carry UNAUTHENTICATED'),
});
