/** Accounts: users, API keys (hashed) and dashboard sessions (Store.ts). */
import type { Role } from '../../contract/roles.js';

export interface UserRecord {
  username: string;
  passwordHash: string | null;
  isAdmin: boolean;
  /** The entities the user belongs to, sorted: the keys of `roles`. */
  entities: string[];
  /** Role per entity (docs/security/roles.md). */
  roles: Record<string, Role>;
  /** Per-project overrides, keyed by `<entity>/<project>`. */
  projectRoles: Record<string, Role>;
  /** Where bare project names go: the first entity given, unless changed; null without entities. */
  defaultEntity: string | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  keyId: string;
  username: string;
  keyHash: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface AccountsStore {
  getUser(username: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  /**
   * Creates the user, or updates its password/admin flag and adds entities: new memberships get
   * `role` (default `member`); existing ones change only when `role` is given.
   */
  upsertUser(user: {
    username: string;
    passwordHash?: string | null;
    isAdmin?: boolean;
    entities?: string[];
    role?: Role;
  }): Promise<UserRecord>;
  /**
   * Sets the user's role in an entity (`scope` = entity) or overrides it in one project (`scope`
   * = entity/project); null removes the membership or override. False when there is no such user.
   */
  setRole(username: string, scope: string, role: Role | null): Promise<boolean>;
  /** Sets the user's default entity (the caller checks that the user may use it); false when there is no such user. */
  setDefaultEntity(username: string, entity: string): Promise<boolean>;
  createApiKey(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void>;
  getApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  listApiKeys(username: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(keyId: string, at: number): Promise<boolean>;
  /** Replaces a key's stored hash (keys hashed by older versions move to the current scheme at their next use). */
  updateApiKeyHash(keyId: string, keyHash: string): Promise<void>;

  // Dashboard sessions (auth/sessions.ts); times are epoch microseconds.
  createSession(session: SessionRecord): Promise<void>;
  getSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null>;
  getSession(sessionId: string): Promise<SessionRecord | null>;
  /** The user's sessions, oldest first. */
  listSessions(username: string): Promise<SessionRecord[]>;
  touchSession(sessionId: string, lastSeenAt: number): Promise<void>;
  /** Ends one session; false when there was none. */
  deleteSession(sessionId: string): Promise<boolean>;
  /** Ends every session of the user but `exceptSessionId`; answers how many ended. */
  deleteUserSessions(username: string, exceptSessionId?: string | null): Promise<number>;
  /** Drops sessions past their absolute expiry or idle since before `idleBefore`. */
  deleteExpiredSessions(now: number, idleBefore: number): Promise<number>;
}

/** A dashboard session: the token itself is never stored, only its hash. */
export interface SessionRecord {
  sessionId: string;
  tokenHash: string;
  username: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string;
  address: string;
}
