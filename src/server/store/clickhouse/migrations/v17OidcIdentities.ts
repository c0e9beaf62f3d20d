import type { ClickHouseMigration } from './migration.js';

export const v17OidcIdentities: ClickHouseMigration = {
  version: 17,
  name: 'oidc identities',
  statements: [
    // Single sign-on identities (docs/security/sso.md); a change is a newer version, removal a tombstone.
    `CREATE TABLE IF NOT EXISTS oidc_identities (issuer String, subject String, username String, email Nullable(String),
        email_verified UInt8, created_at Int64, last_sign_in_at Int64, version UInt64, is_deleted UInt8)
        ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY (issuer, subject)`,
  ],
};
