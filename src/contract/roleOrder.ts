/**
 * The roles and their order, without zod: the dashboard's permission checks import this, and
 * roles.ts builds the zod schema on it. Importing roles.ts at run time brings zod (~30 KB
 * gzipped) into a page that only compares roles (docs/trace-outline.md "The cold first paint").
 */

/** Weakest first: each role can do everything the ones before it can (docs/security/roles.md). */
export const ROLES = ['viewer', 'annotator', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];

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
