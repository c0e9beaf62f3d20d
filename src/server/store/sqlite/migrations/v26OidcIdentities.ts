/**
 * Migration 26: single sign-on identities, (issuer, subject) → Weft user, with the email the
 * issuer gave (docs/security/sso.md).
 */
import type { Migration } from './migration.js';

export const v26OidcIdentities: Migration = {
  version: 26,
  name: 'oidc identities',
  sql: `
    CREATE TABLE oidc_identities (
      issuer          TEXT NOT NULL,
      subject         TEXT NOT NULL,
      username        TEXT NOT NULL,
      email           TEXT,
      email_verified  INTEGER NOT NULL DEFAULT 0,
      created_at      INTEGER NOT NULL,
      last_sign_in_at INTEGER NOT NULL,
      PRIMARY KEY (issuer, subject)
    ) WITHOUT ROWID;
    CREATE INDEX oidc_identities_by_user ON oidc_identities (username);
    CREATE INDEX oidc_identities_by_email ON oidc_identities (email) WHERE email_verified = 1;
  `,
};
