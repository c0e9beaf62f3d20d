/**
 * What a user may do in an entity (or one project of it), weakest first: each role can do
 * everything the ones before it can (docs/security/roles.md).
 */
import { z } from 'zod';

export const ROLES = ['viewer', 'annotator', 'member', 'admin'] as const;
export const Role = z
  .enum(ROLES)
  .describe('viewer: read; annotator: also feedback and queues; member: also writes; admin: also members and rules');
export type Role = z.infer<typeof Role>;

/** True when `have` allows what `need` allows. */
export const roleAtLeast = (have: Role, need: Role): boolean => ROLES.indexOf(have) >= ROLES.indexOf(need);

/** What roles are read from: a caller as the server authenticates it, or as /weft/whoami describes it. */
export interface RoleHolder {
  isAdmin: boolean;
  roles: Readonly<Record<string, Role>>;
  projectRoles: Readonly<Record<string, Role>>;
}

/** The entities the holder administers, sorted: 'all' for a global admin. */
export function administeredEntities(holder: RoleHolder): 'all' | string[] {
  if (holder.isAdmin) return 'all';
  return Object.entries(holder.roles)
    .filter(([, role]) => role === 'admin')
    .map(([entity]) => entity)
    .sort();
}

/**
 * The holder's role in `<entity>/<project>` (or in a bare entity): a per-project override, else
 * the entity role; global admins are admins everywhere. Null when they have none.
 */
export function roleIn(holder: RoleHolder, projectOrEntity: string): Role | null {
  if (holder.isAdmin) return 'admin';
  return holder.projectRoles[projectOrEntity] ?? holder.roles[projectOrEntity.split('/')[0]!] ?? null;
}
