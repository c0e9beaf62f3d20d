/**
 * A caller's role in a project: a per-project override, else their role in its entity; global
 * admins are admins everywhere (docs/security/roles.md).
 */
import { roleAtLeast, type Role } from '../../contract/roles.js';
import { ForbiddenError } from '../errors.js';

export type { Role } from '../../contract/roles.js';

/** The part of an authenticated caller (authenticate.ts AuthUser) that roles are read from. */
export interface RoleHolder {
  username: string;
  isAdmin: boolean;
  roles: Readonly<Record<string, Role>>;
  projectRoles: Readonly<Record<string, Role>>;
}

/** The caller's role in `<entity>/<project>` (or in a bare entity), or null when they have none. */
export function roleIn(user: RoleHolder, projectOrEntity: string): Role | null {
  if (user.isAdmin) return 'admin';
  const override = user.projectRoles[projectOrEntity];
  if (override) return override;
  return user.roles[projectOrEntity.split('/')[0]!] ?? null;
}

/** Throws 403, naming the role needed, unless the caller has at least `need` in `projectOrEntity`. */
export function requireRole(user: RoleHolder, projectOrEntity: string, need: Role, doing = 'do this'): void {
  const have = roleIn(user, projectOrEntity);
  if (have && roleAtLeast(have, need)) return;
  throw new ForbiddenError(
    have
      ? `User "${user.username}" is ${article(have)} ${have} in "${projectOrEntity}"; to ${doing} they must be ${article(need)} ${need} or above (an entity admin can change it in Settings or with \`npx weft user role ${user.username} ${projectOrEntity.split('/')[0]} ${need}\`)`
      : `User "${user.username}" may not access "${projectOrEntity}"; an admin can grant it with \`npx weft user add ${user.username} --entity ${projectOrEntity.split('/')[0]}\``,
  );
}

const article = (role: Role): string => (role === 'admin' || role === 'annotator' ? 'an' : 'a');
