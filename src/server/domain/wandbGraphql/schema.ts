/**
 * The W&B GraphQL schema Weft serves: exactly the types and fields the Weave SDKs (Python thin
 * client, older `wandb` InternalApi, npm `WandbServerApi`) and `wandb login` use before they
 * trace, named as W&B names them, so introspection probes (`__type(name: "Query")`) see the
 * same names. Anything else is an unknown field and gets graphql-js's standard validation error.
 *
 * Arguments and input fields are nullable as in W&B's schema: the thin client declares its
 * variables `String!`, `wandb` declares them `String`, and a validating engine rejects a
 * nullable variable in a non-null position; presence is checked by the resolvers instead.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';

const SDL = /* GraphQL */ `
  "W&B's JSON-in-a-string scalar (viewer.flags)."
  scalar JSONString

  type Query {
    "The authenticated user."
    viewer: User
    "A project, or null when it does not exist or the caller may not use its entity."
    project(name: String, entityName: String): Project
    "W&B's legacy name for project (wandb's ProjectDetails query)."
    model(name: String, entityName: String): Project
    serverInfo: ServerInfo
  }

  type Mutation {
    "Creates the project if needed (idempotent); the answer echoes the requested name."
    upsertModel(input: UpsertModelInput!): UpsertModelPayload
  }

  type User {
    id: ID!
    username: String
    name: String
    email: String
    admin: Boolean
    "Legacy: the default entity's name."
    entity: String
    defaultEntity: Entity
    teams: EntityConnection
    flags: JSONString
  }

  type Entity {
    id: ID!
    name: String!
  }

  type EntityConnection {
    edges: [EntityEdge!]!
  }

  type EntityEdge {
    node: Entity
  }

  type Project {
    id: ID!
    name: String!
    entityName: String!
    description: String
    repo: String
    dockerImage: String
  }

  input UpsertModelInput {
    id: String
    name: String
    entityName: String
    description: String
    repo: String
  }

  type UpsertModelPayload {
    model: Project
    project: Project
    inserted: Boolean
  }

  type ServerFeature {
    name: String!
    isEnabled: Boolean!
  }

  type ServerInfo {
    frontendHost: String
    "No W&B server features are offered; wandb treats each as disabled."
    features: [ServerFeature!]!
  }
`;

let built: GraphQLSchema | null = null;

/** The schema, built once. */
export function wandbSchema(): GraphQLSchema {
  built ??= buildSchema(SDL);
  return built;
}
