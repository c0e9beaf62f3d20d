/**
 * What the signed-in user may do, read from the endpoint table: the role an endpoint needs is
 * its row's `role`, and the user's role in a project comes from `roleIn`, the function the
 * server checks with. So the dashboard shows exactly the actions that will not answer 403
 * (docs/security/roles.md "The dashboard").
 */
import type { EndpointDef, EndpointName } from '../../contract/endpoints.js';
// Not endpoints.ts and roles.ts: they bring zod and every schema (docs/trace-outline.md "The cold first paint").
import { administeredEntities as administeredBy, roleAtLeast, roleIn, type Role } from '../../contract/roleOrder.js';
import type { WhoamiRes } from '../../contract/weft.js';
import { routeRoles } from '../../client/routeRoles.js';

/** What a permission is decided from: the parts of /weft/whoami that carry roles. */
export type Caller = Pick<WhoamiRes, 'is_admin' | 'roles' | 'project_roles'>;

/** The least an endpoint asks of its caller. */
export type Need = Role | 'signed-in' | 'public';

/** Whether an action is open to the caller, and if not, the role that would open it. */
export interface Permission {
  allowed: boolean;
  need: Need;
  /** "Needs member role" when refused (a tooltip for a disabled control); null when allowed. */
  reason: string | null;
}

/**
 * The role an endpoint's row asks for. Rows without a `role` are read as `viewer` for GET and
 * `member` for everything else, here and only here; once every row carries a role (the server
 * refuses rows without one) this fallback can go.
 */
export function needOf(e: Partial<Pick<EndpointDef, 'method' | 'public' | 'role'>>): Need {
  if (e.public) return 'public';
  return e.role ?? (e.method === 'GET' ? 'viewer' : 'member');
}

/** The role endpoint `name` asks for (`needOf` its row). */
export const roleNeeded = (name: EndpointName): Need => needOf(routeRoles[name]);

/** Whether `caller` has what `need` asks for in `scope`, and if not, the tooltip saying so. */
export function permissionFor(caller: Caller | null | undefined, need: Need, scope: string): Permission {
  if (need === 'public') return { allowed: true, need, reason: null };
  if (!caller) return { allowed: false, need, reason: 'Sign in first' };
  if (need === 'signed-in') return { allowed: true, need, reason: null };
  const have = roleOf(caller, scope);
  if (have && roleAtLeast(have, need)) return { allowed: true, need, reason: null };
  return { allowed: false, need, reason: `Needs ${need} role` };
}

/**
 * May `caller` call endpoint `name` on `scope` (`<entity>/<project>`, or a bare entity for
 * entity-wide actions such as changing roles)?
 */
export const permission = (caller: Caller | null | undefined, name: EndpointName, scope: string): Permission =>
  permissionFor(caller, roleNeeded(name), scope);

/** Shorthand for `permission(...).allowed`. */
export const can = (caller: Caller | null | undefined, name: EndpointName, scope: string): boolean =>
  permission(caller, name, scope).allowed;

/** The caller as the contract's role functions read it. */
const holderOf = (caller: Caller) => ({ isAdmin: caller.is_admin, roles: caller.roles, projectRoles: caller.project_roles });

/** The caller's role in `scope`, for display ("You are a viewer here"); null when they have none. */
export function roleOf(caller: Caller, scope: string): Role | null {
  return roleIn(holderOf(caller), scope);
}

/** Entities whose members the caller manages: 'all' for a global admin. */
export const administeredEntities = (caller: Caller): 'all' | string[] => administeredBy(holderOf(caller));

/** Whether Settings shows the caller the Users section: global admins and entity admins. */
export function managesUsers(caller: Caller): boolean {
  const entities = administeredEntities(caller);
  return entities === 'all' || entities.length > 0;
}
