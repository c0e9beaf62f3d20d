/**
 * ClickHouse implementation of IdentitiesStore: a ReplacingMergeTree read with FINAL. Two
 * replicas linking the same (issuer, subject) at once end with the later insert.
 */
import type { IdentitiesStore, IdentityRecord } from '../IdentitiesStore.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

interface IdentityRow {
  issuer: string;
  subject: string;
  username: string;
  email: string | null;
  email_verified: number;
  created_at: string;
  last_sign_in_at: string;
}

const COLUMNS = 'issuer, subject, username, email, email_verified, created_at, last_sign_in_at';

const fromRow = (r: IdentityRow): IdentityRecord => ({
  issuer: r.issuer,
  subject: r.subject,
  username: r.username,
  email: r.email,
  emailVerified: Number(r.email_verified) === 1,
  createdAt: num(r.created_at),
  lastSignInAt: num(r.last_sign_in_at),
});

const toRow = (i: IdentityRecord, version: number, isDeleted = 0) => ({
  issuer: i.issuer,
  subject: i.subject,
  username: i.username,
  email: i.email?.toLowerCase() ?? null,
  email_verified: i.emailVerified ? 1 : 0,
  created_at: i.createdAt,
  last_sign_in_at: i.lastSignInAt,
  version,
  is_deleted: isDeleted,
});

export class ClickHouseIdentitiesStore implements IdentitiesStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async #select(where: string, params: Record<string, unknown>): Promise<IdentityRecord[]> {
    const rows = await this.#db.all<IdentityRow>(
      `SELECT ${COLUMNS} FROM oidc_identities FINAL WHERE is_deleted = 0 AND ${where} ORDER BY created_at, issuer, subject`,
      params,
    );
    return rows.map(fromRow);
  }

  async getIdentity(issuer: string, subject: string): Promise<IdentityRecord | null> {
    return (await this.#select('issuer = {i:String} AND subject = {s:String}', { i: issuer, s: subject }))[0] ?? null;
  }

  async upsertIdentity(identity: IdentityRecord): Promise<void> {
    const current = await this.getIdentity(identity.issuer, identity.subject);
    const version = await this.#version(identity.issuer, identity.subject);
    await this.#db.insert('oidc_identities', [toRow({ ...identity, createdAt: current?.createdAt ?? identity.createdAt }, version)]);
  }

  async listIdentities(username: string): Promise<IdentityRecord[]> {
    return this.#select('username = {u:String}', { u: username });
  }

  async usernamesByVerifiedEmail(email: string): Promise<string[]> {
    const found = await this.#select('email = {e:String} AND email_verified = 1', { e: email.toLowerCase() });
    return [...new Set(found.map((i) => i.username))].sort();
  }

  async deleteIdentity(issuer: string, subject: string): Promise<boolean> {
    const current = await this.getIdentity(issuer, subject);
    if (!current) return false;
    await this.#db.insert('oidc_identities', [toRow(current, await this.#version(issuer, subject), 1)]);
    return true;
  }

  /** Above every stored version of the identity, whatever this replica's clock says (docs/clickhouse.md, row versions). */
  #version(issuer: string, subject: string): Promise<number> {
    return this.#db.versionAfter('oidc_identities', 'issuer = {i:String} AND subject = {s:String}', { i: issuer, s: subject });
  }
}
