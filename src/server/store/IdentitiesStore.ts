/**
 * Sign-in identities: which Weft user an account at an OpenID Connect issuer signs in as
 * (docs/security/sso.md). One row per (issuer, subject), the pair an ID token names a person by;
 * the email is what the issuer last said of it, kept for linking by verified email.
 */

export interface IdentityRecord {
  /** The issuer URL exactly as the ID token's `iss`; `weft:admin` for an email an administrator recorded. */
  issuer: string;
  /** The ID token's `sub` (for `weft:admin` rows: the username). */
  subject: string;
  username: string;
  /** Lower-cased; null when the issuer gave none. */
  email: string | null;
  /** True when the issuer said `email_verified: true` (or an administrator recorded it). */
  emailVerified: boolean;
  createdAt: number;
  lastSignInAt: number;
}

export interface IdentitiesStore {
  getIdentity(issuer: string, subject: string): Promise<IdentityRecord | null>;
  /** Creates the link, or updates its username, email and last sign-in. */
  upsertIdentity(identity: IdentityRecord): Promise<void>;
  /** The user's identities, oldest first. */
  listIdentities(username: string): Promise<IdentityRecord[]>;
  /** The users (sorted, distinct) holding an identity with this verified email, compared lower-cased. */
  usernamesByVerifiedEmail(email: string): Promise<string[]>;
  /** Removes one link; false when there was none. */
  deleteIdentity(issuer: string, subject: string): Promise<boolean>;
}
