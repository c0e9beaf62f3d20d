/**
 * Account management behind Weft's settings page: creating users, listing and revoking API
 * keys, with who-may-do-what in one place. Admins manage everyone; a user manages their own
 * keys. Passwords are stored as scrypt hashes and keys as SHA-256 only (auth/secrets.ts), and a revoked
 * key stops working at once: the authenticator's cache of verified credentials is cleared.
 */
import type { ApiKey, User } from '../../../contract/accounts.js';
import { administeredEntities, type Role } from '../../../contract/roles.js';
import type { WhoamiRes } from '../../../contract/weft.js';
import { requireRole } from '../../auth/roles.js';
import type { AuthUser, Authenticator } from '../../auth/authenticate.js';
import { actorOf, type AuditTrail } from '../../audit/auditTrail.js';
import { createApiKey } from '../../auth/apiKeys.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { ApiKeyRecord, Store, UserRecord } from '../../store/Store.js';
import type { Clock } from '../../core/clock.js';
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import { defaultEntityOf } from './defaultEntity.js';
import { ValidationError } from '../../errors.js';

/** A stored user as listed (no hash). */
export const toUser = (u: UserRecord): User => ({
  username: u.username,
  is_admin: u.isAdmin,
  entities: u.entities,
  roles: u.roles,
  project_roles: u.projectRoles,
  default_entity: defaultEntityOf(u),
  created_at: formatMicros(u.createdAt),
  has_password: u.passwordHash !== null,
});

/** A stored key as listed (no hash). */
export const toApiKey = (k: ApiKeyRecord): ApiKey => ({
  key_id: k.keyId,
  name: k.name,
  username: k.username,
  created_at: formatMicros(k.createdAt),
  revoked_at: formatMicrosOrNull(k.revokedAt),
});

/** The caller as /weft/whoami and a sign-in describe them. */
export const whoamiOf = (user: AuthUser, record: UserRecord | null, via: AuthUser['via']): WhoamiRes => ({
  username: user.username,
  is_admin: user.isAdmin,
  entities: [...user.entities].sort(),
  roles: user.roles,
  project_roles: user.projectRoles,
  default_entity: record ? defaultEntityOf(record) : null,
  auth: via,
});

/**
 * The users a caller may manage: everyone for a global admin; for an entity admin, the users
 * with a role in one of their entities, showing only those roles.
 */
export async function listManagedUsers(store: Store, caller: AuthUser): Promise<User[]> {
  const entities = administeredEntities(caller);
  if (entities !== 'all' && entities.length === 0) requireAdmin(caller, 'list users');
  const users = (await store.accounts.listUsers()).map((u) => managedView(caller, u));
  return entities === 'all' ? users : users.filter((u) => u.entities.length > 0 || Object.keys(u.project_roles).length > 0);
}

/** A user as a caller who manages them sees them: everything for a global admin, else only their roles in the caller's entities. */
function managedView(caller: AuthUser, u: UserRecord): User {
  const entities = administeredEntities(caller);
  if (entities === 'all') return toUser(u);
  const mine = new Set(entities);
  const inMine = (scope: string) => mine.has(scope.split('/')[0]!);
  const roles = Object.fromEntries(Object.entries(u.roles).filter(([e]) => inMine(e)));
  const projectRoles = Object.fromEntries(Object.entries(u.projectRoles).filter(([p]) => inMine(p)));
  return toUser({ ...u, isAdmin: false, entities: Object.keys(roles), roles, projectRoles });
}

/** What the account changes need: the store, the authenticator (to drop cached roles), and the audit trail with the caller's address. */
export interface AccountDeps {
  store: Store;
  authenticator: Authenticator;
  audit: AuditTrail;
  /** The caller's client address, for the audit entry. */
  address: string;
}

/** Sets or removes a user's role in an entity or one project; entity admins for their entity. */
export async function setUserRole(
  deps: AccountDeps,
  caller: AuthUser,
  req: { username: string; scope: string; role: Role | null },
): Promise<User> {
  requireRole(caller, req.scope, 'admin', 'change roles');
  const target = await deps.store.accounts.getUser(req.username);
  if (!target) throw new NotFoundError(`No user "${req.username}"; create them first (Settings → Users, or \`npx weft user add\`)`);
  await deps.store.accounts.setRole(req.username, req.scope, req.role);
  // Cached credentials carry roles: the change holds from the next request on.
  deps.authenticator.forget();
  const slash = req.scope.indexOf('/');
  await deps.audit.record({
    actor: actorOf(caller),
    address: deps.address,
    action: 'role.changed',
    target: req.username,
    entity: slash < 0 ? req.scope : req.scope.slice(0, slash),
    projectId: slash < 0 ? null : req.scope,
    outcome: 'success',
    details: { role: req.role, scope: req.scope },
  });
  return managedView(caller, (await deps.store.accounts.getUser(req.username))!);
}

/** Throws 403 unless the caller is an admin. */
export function requireAdmin(user: AuthUser, what: string): void {
  if (!user.isAdmin) throw new ForbiddenError(`Only admins may ${what}; ask an admin, or use \`npx weft user add\` on the server`);
}

/** Creates a user with a password; 409 when the name is taken (this never edits a user). */
export async function createUser(
  deps: AccountDeps,
  caller: AuthUser,
  req: { username: string; password: string; entities: string[]; role: Role; is_admin: boolean },
): Promise<User> {
  const { store } = deps;
  if (await store.accounts.getUser(req.username)) throw new ConflictError(`User "${req.username}" already exists`);
  const created = await store.accounts.upsertUser({
    username: req.username,
    // Through the authenticator: its bound on concurrent hashes (128 MiB each) covers this one too.
    passwordHash: await deps.authenticator.hashPassword(req.password),
    isAdmin: req.is_admin,
    entities: [...new Set(req.entities)],
    role: req.role,
  });
  // One entry per entity joined, so each entity's admins see who was added to it.
  for (const entity of req.entities.length ? [...new Set(req.entities)] : [null]) {
    await deps.audit.record({
      actor: actorOf(caller),
      address: deps.address,
      action: 'user.created',
      target: req.username,
      entity,
      projectId: null,
      outcome: 'success',
      details: { role: req.role, is_admin: req.is_admin },
    });
  }
  return toUser(created);
}

/** Whose keys a caller asks for: their own, or (admins only) someone else's. */
export async function listApiKeys(store: Store, caller: AuthUser, username: string | null | undefined): Promise<ApiKey[]> {
  const owner = username ?? caller.username;
  if (owner !== caller.username) requireAdmin(caller, "list other users' API keys");
  return (await store.accounts.listApiKeys(owner)).map(toApiKey);
}

/** A new key for the caller: the key itself (shown once) and its listing. */
export async function createOwnApiKey(store: Store, caller: AuthUser, name: string): Promise<{ key: string; api_key: ApiKey }> {
  const { key, keyId } = await createApiKey(store, caller.username, name.trim());
  return { key, api_key: toApiKey((await store.accounts.getApiKey(keyId))!) };
}

/** Revokes a key of the caller's (any key, for admins) and makes it fail from the next request on. */
export async function revokeApiKey(
  deps: { store: Store; authenticator: Authenticator; clock: Clock },
  caller: AuthUser,
  keyId: string,
): Promise<ApiKey> {
  const record = await deps.store.accounts.getApiKey(keyId);
  if (!record) throw new NotFoundError(`No API key with id ${keyId}`);
  if (record.username !== caller.username) requireAdmin(caller, "revoke other users' API keys");
  if (record.revokedAt === null) {
    await deps.store.accounts.revokeApiKey(keyId, deps.clock.nowMicros());
    // Verified credentials are cached for a minute; a revoked key must not ride on that.
    deps.authenticator.forget();
  }
  return toApiKey((await deps.store.accounts.getApiKey(keyId))!);
}

/**
 * Sets where a user's bare project names go. The entity must be one the user may use (any, for
 * an admin user), so the SDKs never get a default they cannot write to. Admins may set anyone's.
 */
export async function setDefaultEntity(store: Store, caller: AuthUser, req: { entity: string; username?: string | null }): Promise<User> {
  const username = req.username ?? caller.username;
  if (username !== caller.username) requireAdmin(caller, "change other users' default entity");
  const target = await store.accounts.getUser(username);
  if (!target) throw new NotFoundError(`No user "${username}"`);
  if (!target.isAdmin && !target.entities.includes(req.entity)) {
    const choices = target.entities.length ? target.entities.join(', ') : '(none)';
    throw new ValidationError([
      {
        loc: ['body', 'entity'],
        msg: `"${username}" does not belong to entity "${req.entity}"; choose one of: ${choices}`,
        type: 'value_error',
      },
    ]);
  }
  await store.accounts.setDefaultEntity(username, req.entity);
  return toUser((await store.accounts.getUser(username))!);
}
