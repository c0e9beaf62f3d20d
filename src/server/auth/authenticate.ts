/**
 * HTTP Basic authentication. `user:password` for people, `api:<key>` for SDKs (what the
 * official Weave SDKs send). Verified credentials are cached in memory for a short time,
 * keyed by a SHA-256 of the header, so the scrypt cost is paid once per client rather than
 * once per request; a revoked key or changed password stops working within `CACHE_MS`.
 */
import { createHash } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Store } from '../store/Store.js';
import { KEY_ID_LENGTH, KEY_LENGTH } from './apiKeys.js';
import { verifySecret } from './secrets.js';

export interface AuthUser {
  username: string;
  isAdmin: boolean;
  entities: ReadonlySet<string>;
  via: 'password' | 'api_key';
}

const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

export class Authenticator {
  readonly #store: Store;
  readonly #cache = new Map<string, { user: AuthUser; until: number }>();

  readonly #onForget: (() => void) | undefined;

  /** `onForget` hears every `forget()`, so other server processes can drop their caches too. */
  constructor(store: Store, options: { onForget?: () => void } = {}) {
    this.#store = store;
    this.#onForget = options.onForget;
  }

  /** The user behind an `Authorization` header, or UnauthorizedError. */
  async authenticate(header: string | undefined | null): Promise<AuthUser> {
    if (!header) throw new UnauthorizedError();
    const cacheKey = createHash('sha256').update(header).digest('base64url');
    const hit = this.#cache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.user;

    const user = await this.#verify(header);
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(cacheKey, { user, until: Date.now() + CACHE_MS });
    return user;
  }

  /** Forgets cached credentials (after a key is revoked or a password changes), everywhere. */
  forget(): void {
    this.forgetLocally();
    this.#onForget?.();
  }

  /** Forgets this process's cached credentials only (another process already changed them). */
  forgetLocally(): void {
    this.#cache.clear();
  }

  async #verify(header: string): Promise<AuthUser> {
    const [username, password] = decodeBasic(header);
    if (username === 'api') return this.#verifyKey(password);
    const user = await this.#store.accounts.getUser(username);
    if (!user?.passwordHash || !(await verifySecret(password, user.passwordHash))) {
      throw new UnauthorizedError('Wrong username or password');
    }
    return { username: user.username, isAdmin: user.isAdmin, entities: new Set(user.entities), via: 'password' };
  }

  async #verifyKey(key: string): Promise<AuthUser> {
    const record = key.length === KEY_LENGTH ? await this.#store.accounts.getApiKey(key.slice(0, KEY_ID_LENGTH)) : null;
    if (!record || record.revokedAt !== null || !(await verifySecret(key, record.keyHash))) {
      throw new UnauthorizedError('Unknown or revoked API key; create one with `npx weft key create --user <name>`');
    }
    const user = await this.#store.accounts.getUser(record.username);
    if (!user) throw new UnauthorizedError('The API key belongs to a user that no longer exists');
    return { username: user.username, isAdmin: user.isAdmin, entities: new Set(user.entities), via: 'api_key' };
  }
}

function decodeBasic(header: string): [string, string] {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new UnauthorizedError('Only HTTP Basic credentials are accepted');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new UnauthorizedError('Malformed Basic credentials');
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** True when the user may read and write `<entity>/<project>`. */
export function canAccessProject(user: AuthUser, projectId: string): boolean {
  return user.isAdmin || user.entities.has(projectId.split('/')[0]!);
}

/** Throws 403 unless the user may touch every listed project. */
export function assertProjectAccess(user: AuthUser, projectIds: Iterable<string>): void {
  for (const projectId of projectIds) {
    if (!canAccessProject(user, projectId)) {
      throw new ForbiddenError(
        `User "${user.username}" may not access project "${projectId}"; an admin can grant it with \`npx weft user add ${user.username} --entity ${projectId.split('/')[0]}\``,
      );
    }
  }
}
