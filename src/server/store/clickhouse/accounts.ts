/**
 * ClickHouse implementation of AccountsStore: users, entities, API keys and dashboard sessions
 * in ReplacingMergeTree tables read with FINAL.
 *
 * Weaker than SQLite, and said so: a change is read-merge-insert, so two replicas changing the
 * same user or key in the same instant end with the higher version (the later clock; on a tie the
 * later insert), and two concurrent revocations of one key may both answer true. A change made
 * after another was acknowledged always wins, whatever the replicas' clocks (db.versionAfter). Ending a session and revoking a key
 * are final, though: no concurrent rewrite brings them back (FINAL_VERSION_OFFSET). Every change
 * that must reach other replicas' credential caches bumps `accounts_epoch` (see `epoch()`), which
 * each replica polls (auth/accountsEpoch.ts).
 */
import type { Role } from '../../../contract/roles.js';
import type { AccountsStore, ApiKeyRecord, SessionRecord, UserRecord } from '../Store.js';
import { FINAL_VERSION_OFFSET, num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';

interface UserRow {
  username: string;
  password_hash: string | null;
  is_admin: number;
  default_entity: string | null;
  created_at: string;
}
interface KeyRow {
  key_id: string;
  username: string;
  key_hash: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}
interface SessionRow {
  session_id: string;
  token_hash: string;
  username: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string;
  address: string;
}

const USER_COLUMNS = 'username, password_hash, is_admin, default_entity, created_at';
const KEY_COLUMNS = 'key_id, username, key_hash, name, created_at, revoked_at';
const SESSION_COLUMNS = 'session_id, token_hash, username, created_at, last_seen_at, expires_at, user_agent, address';

const keyFromRow = (r: KeyRow): ApiKeyRecord => ({
  keyId: r.key_id,
  username: r.username,
  keyHash: r.key_hash,
  name: r.name,
  createdAt: num(r.created_at),
  revokedAt: numOrNull(r.revoked_at),
});

const sessionFromRow = (r: SessionRow): SessionRecord => ({
  sessionId: r.session_id,
  tokenHash: r.token_hash,
  username: r.username,
  createdAt: num(r.created_at),
  lastSeenAt: num(r.last_seen_at),
  expiresAt: num(r.expires_at),
  userAgent: r.user_agent,
  address: r.address,
});

/*
 * A final change (an ended session, a revoked key) adds FINAL_VERSION_OFFSET to its version, so
 * it outranks every ordinary rewrite of the same row. Those rewrites are read-merge-insert: a
 * session touch or a key's hash upgrade on one replica may read the row just before another
 * replica ends it, and insert after. Without the offset that later insert would bring the
 * session or key back; with it the end stays final.
 */
const sessionRow = (s: SessionRecord, version: number, isDeleted = 0) => ({
  session_id: s.sessionId,
  token_hash: s.tokenHash,
  username: s.username,
  created_at: s.createdAt,
  last_seen_at: s.lastSeenAt,
  expires_at: s.expiresAt,
  user_agent: s.userAgent,
  address: s.address,
  version: version + (isDeleted ? FINAL_VERSION_OFFSET : 0),
  is_deleted: isDeleted,
});

export class ClickHouseAccountsStore implements AccountsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  /** The accounts epoch: it grows with every revocation or password change, on any replica. */
  async epoch(): Promise<number> {
    const row = await this.#db.get<{ e: string }>('SELECT max(epoch) AS e FROM accounts_epoch');
    return num(row?.e ?? 0);
  }

  /**
   * One more than the highest epoch stored, computed by the server: a replica whose clock runs
   * behind another's still moves the epoch (a clock value could land below the maximum and go
   * unseen). Two bumps at once may store the same value; readers still see it move once, after
   * both changes were written.
   */
  async #bumpEpoch(): Promise<void> {
    await this.#db.command('INSERT INTO accounts_epoch (id, epoch) SELECT 0, max(epoch) + 1 FROM accounts_epoch');
  }

  async #users(where: string, params: Record<string, unknown>): Promise<UserRecord[]> {
    const rows = await this.#db.all<UserRow & { grants: [string, string][] }>(
      `SELECT ${USER_COLUMNS.split(', ')
        .map((c) => `u.${c} AS ${c}`)
        .join(', ')},
         arraySort(groupArrayIf((e.scope, e.role), e.scope != '')) AS grants
       FROM (SELECT ${USER_COLUMNS} FROM users FINAL WHERE ${where}) AS u
       LEFT JOIN (SELECT username, scope, role FROM user_roles FINAL WHERE is_deleted = 0) AS e ON e.username = u.username
       GROUP BY ${USER_COLUMNS.split(', ')
         .map((c) => `u.${c}`)
         .join(', ')}
       ORDER BY username`,
      params,
    );
    return rows.map((r) => ({
      username: r.username,
      passwordHash: r.password_hash,
      isAdmin: r.is_admin === 1,
      ...rolesOf(r.grants),
      defaultEntity: r.default_entity,
      createdAt: num(r.created_at),
    }));
  }

  async getUser(username: string): Promise<UserRecord | null> {
    return (await this.#users('username = {u:String}', { u: username }))[0] ?? null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return this.#users('1', {});
  }

  async upsertUser(user: {
    username: string;
    passwordHash?: string | null;
    isAdmin?: boolean;
    entities?: string[];
    role?: Role;
  }): Promise<UserRecord> {
    const current = await this.getUser(user.username);
    const entities = user.entities ?? [];
    // Entities first: a user row never points its default at an entity it does not have.
    const granted = entities.filter((entity) => user.role !== undefined || !current?.roles[entity]);
    if (granted.length) {
      const version = await this.#db.versionAfter('user_roles', 'username = {u:String} AND scope IN {s:Array(String)}', {
        u: user.username,
        s: granted,
      });
      await this.#db.insert(
        'user_roles',
        granted.map((entity) => ({ username: user.username, scope: entity, role: user.role ?? 'member', version, is_deleted: 0 })),
      );
    }
    await this.#db.insert('users', [
      {
        username: user.username,
        password_hash: user.passwordHash !== undefined ? user.passwordHash : (current?.passwordHash ?? null),
        is_admin: (user.isAdmin ?? current?.isAdmin ?? false) ? 1 : 0,
        // A user's first entity is their default until they choose another.
        default_entity: current?.defaultEntity ?? entities[0] ?? null,
        created_at: current?.createdAt ?? Date.now() * 1000,
        version: await this.#userVersion(user.username),
      },
    ]);
    if (current && user.passwordHash !== undefined && user.passwordHash !== current.passwordHash) await this.#bumpEpoch();
    return (await this.getUser(user.username))!;
  }

  async setRole(username: string, scope: string, role: Role | null): Promise<boolean> {
    const current = await this.getUser(username);
    if (!current) return false;
    const version = await this.#db.versionAfter('user_roles', 'username = {u:String} AND scope = {s:String}', { u: username, s: scope });
    await this.#db.insert('user_roles', [{ username, scope, role: role ?? '', version, is_deleted: role === null ? 1 : 0 }]);
    if (role !== null && !scope.includes('/') && current.defaultEntity === null) await this.setDefaultEntity(username, scope);
    // Other replicas' credential caches hold the old role until they hear of the change.
    await this.#bumpEpoch();
    return true;
  }

  async setDefaultEntity(username: string, entity: string): Promise<boolean> {
    const current = await this.getUser(username);
    if (!current) return false;
    await this.#db.insert('users', [
      {
        username,
        password_hash: current.passwordHash,
        is_admin: current.isAdmin ? 1 : 0,
        default_entity: entity,
        created_at: current.createdAt,
        version: await this.#userVersion(username),
      },
    ]);
    return true;
  }

  #userVersion(username: string): Promise<number> {
    return this.#db.versionAfter('users', 'username = {u:String}', { u: username });
  }

  /** A key's row; a new key's version is the clock's (no earlier row of its id exists). */
  async #keyRow(k: ApiKeyRecord, isNew = false) {
    const version = isNew ? this.#db.versions.next() : await this.#db.versionAfter('api_keys', 'key_id = {k:String}', { k: k.keyId });
    return {
      key_id: k.keyId,
      username: k.username,
      key_hash: k.keyHash,
      name: k.name,
      created_at: k.createdAt,
      revoked_at: k.revokedAt,
      version: version + (k.revokedAt !== null ? FINAL_VERSION_OFFSET : 0),
    };
  }

  async createApiKey(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void> {
    await this.#db.insert('api_keys', [await this.#keyRow({ ...key, revokedAt: null }, true)]);
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const row = await this.#db.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys FINAL WHERE key_id = {k:String}`, { k: keyId });
    return row ? keyFromRow(row) : null;
  }

  async listApiKeys(username: string): Promise<ApiKeyRecord[]> {
    const rows = await this.#db.all<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys FINAL WHERE username = {u:String} ORDER BY created_at, key_id`,
      { u: username },
    );
    return rows.map(keyFromRow);
  }

  async revokeApiKey(keyId: string, at: number): Promise<boolean> {
    const key = await this.getApiKey(keyId);
    if (!key || key.revokedAt !== null) return false;
    await this.#db.insert('api_keys', [await this.#keyRow({ ...key, revokedAt: at })]);
    await this.#bumpEpoch();
    return true;
  }

  async updateApiKeyHash(keyId: string, keyHash: string): Promise<void> {
    const key = await this.getApiKey(keyId);
    if (key) await this.#db.insert('api_keys', [await this.#keyRow({ ...key, keyHash })]);
  }

  async createSession(s: SessionRecord): Promise<void> {
    // A new session id: no earlier row to outrank.
    await this.#db.insert('sessions', [sessionRow(s, this.#db.versions.next())]);
  }

  async #sessions(where: string, params: Record<string, unknown>): Promise<SessionRecord[]> {
    const rows = await this.#db.all<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions FINAL WHERE is_deleted = 0 AND ${where} ORDER BY created_at, session_id`,
      params,
    );
    return rows.map(sessionFromRow);
  }

  async getSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null> {
    return (await this.#sessions('token_hash = {t:String}', { t: tokenHash }))[0] ?? null;
  }

  async getSession(sessionId: string): Promise<SessionRecord | null> {
    return (await this.#sessions('session_id = {s:String}', { s: sessionId }))[0] ?? null;
  }

  async listSessions(username: string): Promise<SessionRecord[]> {
    return this.#sessions('username = {u:String}', { u: username });
  }

  async touchSession(sessionId: string, lastSeenAt: number): Promise<void> {
    const s = await this.getSession(sessionId);
    if (s) await this.#db.insert('sessions', [sessionRow({ ...s, lastSeenAt }, await this.#sessionVersion([sessionId]))]);
  }

  /** Ends the sessions by inserting tombstones; answers how many were live. */
  async #end(sessions: SessionRecord[]): Promise<number> {
    if (sessions.length === 0) return 0;
    const version = await this.#sessionVersion(sessions.map((s) => s.sessionId));
    await this.#db.insert(
      'sessions',
      sessions.map((s) => sessionRow(s, version, 1)),
    );
    if (sessions.length) await this.#bumpEpoch();
    return sessions.length;
  }

  #sessionVersion(ids: string[]): Promise<number> {
    return this.#db.versionAfter('sessions', 'session_id IN {ids:Array(String)}', { ids });
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    const s = await this.getSession(sessionId);
    return s ? (await this.#end([s])) > 0 : false;
  }

  async deleteUserSessions(username: string, exceptSessionId: string | null = null): Promise<number> {
    const all = await this.listSessions(username);
    return this.#end(all.filter((s) => s.sessionId !== exceptSessionId));
  }

  async deleteExpiredSessions(now: number, idleBefore: number): Promise<number> {
    const expired = await this.#sessions('(expires_at <= {now:Int64} OR last_seen_at < {idle:Int64})', { now, idle: idleBefore });
    return this.#end(expired);
  }
}

/** Entity roles and project overrides from `(scope, role)` pairs sorted by scope. */
function rolesOf(grants: [string, string][]): Pick<UserRecord, 'entities' | 'roles' | 'projectRoles'> {
  const roles: Record<string, Role> = {};
  const projectRoles: Record<string, Role> = {};
  for (const [scope, role] of grants) (scope.includes('/') ? projectRoles : roles)[scope] = role as Role;
  return { entities: Object.keys(roles), roles, projectRoles };
}
