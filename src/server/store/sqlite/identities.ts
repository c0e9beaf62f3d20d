/** SQLite implementation of IdentitiesStore (single sign-on links, docs/security/sso.md). */
import type { IdentitiesStore, IdentityRecord } from '../IdentitiesStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface IdentityRow {
  issuer: string;
  subject: string;
  username: string;
  email: string | null;
  email_verified: number;
  created_at: number;
  last_sign_in_at: number;
}

const fromRow = (r: IdentityRow): IdentityRecord => ({
  issuer: r.issuer,
  subject: r.subject,
  username: r.username,
  email: r.email,
  emailVerified: r.email_verified === 1,
  createdAt: r.created_at,
  lastSignInAt: r.last_sign_in_at,
});

export class SqliteIdentitiesStore implements IdentitiesStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async getIdentity(issuer: string, subject: string): Promise<IdentityRecord | null> {
    const row = this.#db.get<IdentityRow>('SELECT * FROM oidc_identities WHERE issuer = ? AND subject = ?', [issuer, subject]);
    return row ? fromRow(row) : null;
  }

  async upsertIdentity(i: IdentityRecord): Promise<void> {
    this.#db.run(
      `INSERT INTO oidc_identities (issuer, subject, username, email, email_verified, created_at, last_sign_in_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (issuer, subject) DO UPDATE SET username = excluded.username, email = excluded.email,
         email_verified = excluded.email_verified, last_sign_in_at = excluded.last_sign_in_at`,
      [i.issuer, i.subject, i.username, i.email?.toLowerCase() ?? null, i.emailVerified ? 1 : 0, i.createdAt, i.lastSignInAt],
    );
  }

  async listIdentities(username: string): Promise<IdentityRecord[]> {
    return this.#db
      .all<IdentityRow>('SELECT * FROM oidc_identities WHERE username = ? ORDER BY created_at, issuer, subject', [username])
      .map(fromRow);
  }

  async usernamesByVerifiedEmail(email: string): Promise<string[]> {
    return this.#db
      .all<{
        username: string;
      }>('SELECT DISTINCT username FROM oidc_identities WHERE email = ? AND email_verified = 1 ORDER BY username', [email.toLowerCase()])
      .map((r) => r.username);
  }

  async deleteIdentity(issuer: string, subject: string): Promise<boolean> {
    return this.#db.run('DELETE FROM oidc_identities WHERE issuer = ? AND subject = ?', [issuer, subject]).changes > 0;
  }
}
