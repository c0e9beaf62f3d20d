/**
 * A caller's role in a project: a per-project override, else their role in its entity; global
 * admins are admins everywhere (docs/security/roles.md).
 */
import { roleAtLeast, roleIn, type Role, type RoleHolder } from '../../contract/roles.js';
import { ForbiddenError } from '../errors.js';

export { roleIn, type Role } from '../../contract/roles.js';

/** Throws 403, naming the role needed, unless the caller has at least `need` in `projectOrEntity`. */
export function requireRole(user: RoleHolder & { username: string }, projectOrEntity: string, need: Role, doing = 'do this'): void {
  const have = roleIn(user, projectOrEntity);
  if (have && roleAtLeast(have, need)) return;
  throw new ForbiddenError(
    have
      ? `User "${user.username}" is ${article(have)} ${have} in "${projectOrEntity}"; to ${doing} they must be ${article(need)} ${need} or above (an entity admin can change it in Settings or with \`npx weft user role ${user.username} ${projectOrEntity.split('/')[0]} ${need}\`)`
      : `User "${user.username}" has no role in "${projectOrEntity}"; to ${doing} they must be ${article(need)} ${need} or above (an entity admin can grant it in Settings or with \`npx weft user role ${user.username} ${projectOrEntity.split('/')[0]} ${need}\`)`,
  );
}

const article = (role: Role): string => (role === 'admin' || role === 'annotator' ? 'an' : 'a');
