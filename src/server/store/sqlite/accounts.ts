/** SQLite implementation of AccountsStore: users, their entities, and API keys (hashes only). */
import type { Role } from '../../../contract/roles.js';
import type { AccountsStore, ApiKeyRecord, SessionRecord, UserRecord } from '../Store.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface UserRow {
  username: string;
  password_hash: string | null;
  is_admin: number;
  default_entity: string | null;
  created_at: number;
}
interface KeyRow {
  key_id: string;
  username: string;
  key_hash: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
}

interface SessionRow {
  session_id: string;
  token_hash: string;
  username: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string;
  address: string;
}

const sessionFromRow = (r: SessionRow): SessionRecord => ({
  sessionId: r.session_id,
  tokenHash: r.token_hash,
  username: r.username,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  userAgent: r.user_agent,
  address: r.address,
});

const keyFromRow = (r: KeyRow): ApiKeyRecord => ({
  keyId: r.key_id,
  username: r.username,
  keyHash: r.key_hash,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export class SqliteAccountsStore implements AccountsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  #userFromRow(r: UserRow): UserRecord {
    const memberships = this.#db.all<{ entity: string; role: Role }>(
      'SELECT entity, role FROM user_entities WHERE username = ? ORDER BY entity',
      [r.username],
    );
    const overrides = this.#db.all<{ project_id: string; role: Role }>(
      'SELECT project_id, role FROM project_roles WHERE username = ? ORDER BY project_id',
      [r.username],
    );
    return {
      username: r.username,
      passwordHash: r.password_hash,
      isAdmin: r.is_admin === 1,
      entities: memberships.map((m) => m.entity),
      roles: Object.fromEntries(memberships.map((m) => [m.entity, m.role])),
      projectRoles: Object.fromEntries(overrides.map((o) => [o.project_id, o.role])),
      defaultEntity: r.default_entity,
      createdAt: r.created_at,
    };
  }

  async getUser(username: string): Promise<UserRecord | null> {
    const row = this.#db.get<UserRow>('SELECT * FROM users WHERE username = ?', [username]);
    return row ? this.#userFromRow(row) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return this.#db.all<UserRow>('SELECT * FROM users ORDER BY username').map((r) => this.#userFromRow(r));
  }

  async upsertUser(user: {
    username: string;
    passwordHash?: string | null;
    isAdmin?: boolean;
    entities?: string[];
    role?: Role;
  }): Promise<UserRecord> {
    this.#db.transaction(() => {
      this.#db.run('INSERT OR IGNORE INTO users (username, created_at) VALUES (?, ?)', [user.username, Date.now() * 1000]);
      if (user.passwordHash !== undefined) {
        this.#db.run('UPDATE users SET password_hash = ? WHERE username = ?', [user.passwordHash, user.username]);
      }
      if (user.isAdmin !== undefined) {
        this.#db.run('UPDATE users SET is_admin = ? WHERE username = ?', [user.isAdmin ? 1 : 0, user.username]);
      }
      for (const entity of user.entities ?? []) {
        this.#db.run(
          `INSERT INTO user_entities (username, entity, role) VALUES (?, ?, ?)
           ON CONFLICT (username, entity) DO UPDATE SET role = CASE WHEN ? THEN excluded.role ELSE role END`,
          [user.username, entity, user.role ?? 'member', user.role !== undefined ? 1 : 0],
        );
      }
      // A user's first entity is their default until they choose another.
      const first = user.entities?.[0];
      if (first !== undefined) {
        this.#db.run('UPDATE users SET default_entity = ? WHERE username = ? AND default_entity IS NULL', [first, user.username]);
      }
    });
    return (await this.getUser(user.username))!;
  }

  async setRole(username: string, scope: string, role: Role | null): Promise<boolean> {
    if (!this.#db.get('SELECT 1 FROM users WHERE username = ?', [username])) return false;
    const slash = scope.indexOf('/');
    const [table, column] = slash < 0 ? ['user_entities', 'entity'] : ['project_roles', 'project_id'];
    this.#db.transaction(() => {
      if (role === null) this.#db.run(`DELETE FROM ${table} WHERE username = ? AND ${column} = ?`, [username, scope]);
      else {
        this.#db.run(`INSERT INTO ${table} (username, ${column}, role) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET role = excluded.role`, [
          username,
          scope,
          role,
        ]);
        if (slash < 0) this.#db.run('UPDATE users SET default_entity = ? WHERE username = ? AND default_entity IS NULL', [scope, username]);
      }
    });
    return true;
  }

  async setDefaultEntity(username: string, entity: string): Promise<boolean> {
    return this.#db.run('UPDATE users SET default_entity = ? WHERE username = ?', [entity, username]).changes > 0;
  }

  async createApiKey(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void> {
    this.#db.run('INSERT INTO api_keys (key_id, username, key_hash, name, created_at) VALUES (?, ?, ?, ?, ?)', [
      key.keyId,
      key.username,
      key.keyHash,
      key.name,
      key.createdAt,
    ]);
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const row = this.#db.get<KeyRow>('SELECT * FROM api_keys WHERE key_id = ?', [keyId]);
    return row ? keyFromRow(row) : null;
  }

  async listApiKeys(username: string): Promise<ApiKeyRecord[]> {
    return this.#db.all<KeyRow>('SELECT * FROM api_keys WHERE username = ? ORDER BY created_at', [username]).map(keyFromRow);
  }

  async revokeApiKey(keyId: string, at: number): Promise<boolean> {
    return this.#db.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL', [at, keyId]).changes > 0;
  }

  async updateApiKeyHash(keyId: string, keyHash: string): Promise<void> {
    this.#db.run('UPDATE api_keys SET key_hash = ? WHERE key_id = ?', [keyHash, keyId]);
  }

  async createSession(s: SessionRecord): Promise<void> {
    this.#db.run(
      `INSERT INTO sessions (session_id, token_hash, username, created_at, last_seen_at, expires_at, user_agent, address)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [s.sessionId, s.tokenHash, s.username, s.createdAt, s.lastSeenAt, s.expiresAt, s.userAgent, s.address],
    );
  }

  async getSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null> {
    const row = this.#db.get<SessionRow>('SELECT * FROM sessions WHERE token_hash = ?', [tokenHash]);
    return row ? sessionFromRow(row) : null;
  }

  async getSession(sessionId: string): Promise<SessionRecord | null> {
    const row = this.#db.get<SessionRow>('SELECT * FROM sessions WHERE session_id = ?', [sessionId]);
    return row ? sessionFromRow(row) : null;
  }

  async listSessions(username: string): Promise<SessionRecord[]> {
    return this.#db.all<SessionRow>('SELECT * FROM sessions WHERE username = ? ORDER BY created_at', [username]).map(sessionFromRow);
  }

  async touchSession(sessionId: string, lastSeenAt: number): Promise<void> {
    this.#db.run('UPDATE sessions SET last_seen_at = ? WHERE session_id = ?', [lastSeenAt, sessionId]);
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    return this.#db.run('DELETE FROM sessions WHERE session_id = ?', [sessionId]).changes > 0;
  }

  async deleteUserSessions(username: string, exceptSessionId: string | null = null): Promise<number> {
    return this.#db.run('DELETE FROM sessions WHERE username = ? AND session_id IS NOT ?', [username, exceptSessionId]).changes;
  }

  async deleteExpiredSessions(now: number, idleBefore: number): Promise<number> {
    return this.#db.run('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at < ?', [now, idleBefore]).changes;
  }
}
