/**
 * What each root field of the W&B GraphQL subset answers for a Weft user (see
 * docs/api/wandb-graphql.md §6): the viewer is the key's user, an entity is usable when the
 * user belongs to it (admins: every entity, as everywhere in Weft), and upsertModel makes the
 * project exist so it is listed before its first trace.
 */
import { GraphQLError } from 'graphql';
import { NAME_PART_PATTERN, NAME_PART_RULE } from '../../../contract/common.js';
import { canAccessProject, type AuthUser } from '../../auth/authenticate.js';
import { requireRole } from '../../auth/roles.js';
import { ForbiddenError } from '../../errors.js';
import type { Store, UserRecord } from '../../store/Store.js';
import { defaultEntityOf } from '../accounts/defaultEntity.js';

/** Per-request state the resolvers share. */
export interface GraphqlContext {
  store: Store;
  user: AuthUser;
  /** The stored user (entities, default entity). */
  record: UserRecord;
  /** This server's own origin, for `serverInfo.frontendHost`. */
  origin: string;
  /** Told when `upsertModel` creates a project. */
  onProjectCreated?: ((projectId: string, user: AuthUser) => Promise<void>) | undefined;
}

interface ProjectArgs {
  name?: string | null;
  entityName?: string | null;
}

interface UpsertArgs {
  input: { id?: string | null; name?: string | null; entityName?: string | null; description?: string | null; repo?: string | null };
}

/** One part of a project id: the contract's one rule for entity and project names. */
const PART = NAME_PART_PATTERN;

const projectNode = (entity: string, name: string, description: string | null = null) => ({
  id: `${entity}/${name}`,
  name,
  entityName: entity,
  description,
  repo: null,
  dockerImage: null,
});

/** The root value: one resolver per root field, each given (args, context). */
export const rootResolvers = {
  viewer: (_args: unknown, ctx: GraphqlContext) => {
    const entity = defaultEntityOf(ctx.record);
    const teams = [...ctx.user.entities].sort();
    return {
      // Any stable non-empty id will do: wandb's `{ viewer { id } }` only checks it is there.
      id: ctx.user.username,
      username: ctx.user.username,
      name: ctx.user.username,
      email: null,
      admin: ctx.user.isAdmin,
      entity,
      defaultEntity: entity === null ? null : { id: entity, name: entity },
      teams: { edges: teams.map((name) => ({ node: { id: name, name } })) },
      flags: '{}',
    };
  },

  project: (args: ProjectArgs, ctx: GraphqlContext) => findProject(args, ctx),
  model: (args: ProjectArgs, ctx: GraphqlContext) => findProject(args, ctx),

  serverInfo: (_args: unknown, ctx: GraphqlContext) => ({ frontendHost: ctx.origin, features: [] }),

  upsertModel: async ({ input }: UpsertArgs, ctx: GraphqlContext) => {
    const name = input.name ?? null;
    const entity = input.entityName ?? defaultEntityOf(ctx.record);
    if (!name || !PART.test(name)) throw badInput(`upsertModel needs a project name ${NAME_PART_RULE}, not ${JSON.stringify(name)}`);
    if (!entity || !PART.test(entity)) throw badInput(noEntityMessage(ctx, entity));
    const projectId = `${entity}/${name}`;
    requireMember(ctx.user, projectId);
    const existed = await projectExists(ctx.store, projectId);
    if (!existed) {
      await ctx.store.projects.createProject(projectId);
      await ctx.onProjectCreated?.(projectId, ctx.user);
    }
    // The name is echoed unchanged: the SDKs trace into whatever name comes back.
    const model = projectNode(entity, name, input.description ?? null);
    return { model, project: model, inserted: !existed };
  },
};

/** The project when it exists and the caller has a role in it; null otherwise (the SDK then upserts). */
async function findProject(args: ProjectArgs, ctx: GraphqlContext) {
  const entity = args.entityName ?? defaultEntityOf(ctx.record);
  const name = args.name ?? null;
  if (!entity || !name || !PART.test(entity) || !PART.test(name)) return null;
  const projectId = `${entity}/${name}`;
  if (!canAccessProject(ctx.user, projectId) || !(await projectExists(ctx.store, projectId))) return null;
  return projectNode(entity, name);
}

async function projectExists(store: Store, projectId: string): Promise<boolean> {
  return (await store.projects.listProjects({ entities: 'all', projectIds: [projectId] })).length > 0;
}

/**
 * upsertModel writes (it creates the project), so it needs a member (docs/security/roles.md);
 * lookups only need a role. The refusal carries PERMISSION_ERROR: the Python SDK raises its own
 * "You do not have permission to access or create project …" for exactly this code
 * (weave/wandb_interface/project_creator.py).
 */
function requireMember(user: AuthUser, projectId: string): void {
  try {
    requireRole(user, projectId, 'member', 'create or change a project');
  } catch (err) {
    if (err instanceof ForbiddenError) throw new GraphQLError(err.message, { extensions: { code: 'PERMISSION_ERROR' } });
    throw err;
  }
}

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

function noEntityMessage(ctx: GraphqlContext, entity: string | null): string {
  if (entity) return `An entity name must be ${NAME_PART_RULE}, not ${JSON.stringify(entity)}`;
  return `User "${ctx.user.username}" has no entity; an admin can add one with \`npx weft user add ${ctx.user.username} --entity <entity>\``;
}
