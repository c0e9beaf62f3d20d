/**
 * The single sign-on settings (WEFT_OIDC_*), read and checked at start so a mistake stops the
 * server with a sentence naming the setting, and the role map's grammar (docs/security/sso.md).
 */
import { NamePart, ProjectId } from '../../contract/common.js';
import { Role, ROLES } from '../../contract/roles.js';

/** One `value=scope:role` entry of WEFT_OIDC_ROLE_MAP. */
export interface RoleMapEntry {
  /** The claim value it matches, exactly. */
  value: string;
  /** An entity, or `<entity>/<project>` for a per-project role. */
  scope: string;
  role: Role;
}

export interface OidcConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string | null;
  /** The button's "Sign in with <name>". */
  name: string;
  scopes: string;
  /** Where the callback is served, without a trailing `/`; null: the server's public URL. */
  redirectBase: string | null;
  rolesClaim: string | null;
  roleMap: RoleMapEntry[];
  linkByEmail: boolean;
  /** Password sign-in refused for everyone but `breakGlass` (WEFT_OIDC_ONLY). */
  only: boolean;
  breakGlass: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** True for an issuer on this machine: the only place plain http is accepted. */
export const isLoopbackUrl = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

const flag = (name: string, value: string | undefined): boolean => {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0, not "${value}"`);
};

/** The WEFT_OIDC_* settings, or null when single sign-on is not configured. */
export function parseOidcConfig(get: (name: string) => string | undefined): OidcConfig | null {
  const issuerText = get('WEFT_OIDC_ISSUER') || null;
  const only = flag('WEFT_OIDC_ONLY', get('WEFT_OIDC_ONLY'));
  if (!issuerText) {
    const stray = ['WEFT_OIDC_CLIENT_ID', 'WEFT_OIDC_ONLY', 'WEFT_OIDC_ROLE_MAP', 'WEFT_OIDC_ROLES_CLAIM'].filter((n) =>
      n === 'WEFT_OIDC_ONLY' ? only : Boolean(get(n)),
    );
    if (stray.length)
      throw new Error(`${stray.join(', ')} ${stray.length > 1 ? 'need' : 'needs'} WEFT_OIDC_ISSUER (the OpenID Connect issuer URL)`);
    return null;
  }
  let issuer: URL;
  try {
    issuer = new URL(issuerText);
  } catch {
    throw new Error(`WEFT_OIDC_ISSUER must be the issuer's URL, such as https://login.example.com/realms/acme, not "${issuerText}"`);
  }
  if (issuer.search || issuer.hash || issuer.username || issuer.password) {
    throw new Error(`WEFT_OIDC_ISSUER must be a plain URL without query, fragment or credentials, not "${issuerText}"`);
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && isLoopbackUrl(issuer))) {
    throw new Error(
      `WEFT_OIDC_ISSUER must use https (plain http only for an issuer on this machine: 127.0.0.1, ::1 or localhost), not "${issuerText}"`,
    );
  }
  const clientId = get('WEFT_OIDC_CLIENT_ID');
  if (!clientId) throw new Error('WEFT_OIDC_ISSUER is set but WEFT_OIDC_CLIENT_ID is not: give the client id registered at the issuer');
  const scopes = (get('WEFT_OIDC_SCOPES') || 'openid email profile').trim().split(/\s+/);
  if (!scopes.includes('openid')) throw new Error(`WEFT_OIDC_SCOPES must include "openid", not "${scopes.join(' ')}"`);
  const rolesClaim = get('WEFT_OIDC_ROLES_CLAIM') || null;
  const roleMapText = get('WEFT_OIDC_ROLE_MAP') || null;
  if (roleMapText && !rolesClaim)
    throw new Error('WEFT_OIDC_ROLE_MAP needs WEFT_OIDC_ROLES_CLAIM: the ID token claim it maps, e.g. groups');
  if (rolesClaim && !roleMapText) throw new Error('WEFT_OIDC_ROLES_CLAIM needs WEFT_OIDC_ROLE_MAP: which claim values give which roles');
  const breakGlass = (get('WEFT_OIDC_BREAK_GLASS') ?? 'admin')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (only && breakGlass.length === 0) {
    throw new Error(
      'WEFT_OIDC_ONLY=1 needs at least one break-glass user in WEFT_OIDC_BREAK_GLASS, or an issuer outage locks everyone out',
    );
  }
  return {
    issuer,
    clientId,
    clientSecret: get('WEFT_OIDC_CLIENT_SECRET') || null,
    name: get('WEFT_OIDC_NAME') || issuer.hostname,
    scopes: scopes.join(' '),
    redirectBase: redirectBase(get('WEFT_OIDC_REDIRECT_BASE')),
    rolesClaim,
    roleMap: roleMapText ? parseRoleMap(roleMapText) : [],
    linkByEmail: flag('WEFT_OIDC_LINK_BY_EMAIL', get('WEFT_OIDC_LINK_BY_EMAIL')),
    only,
    breakGlass,
  };
}

function redirectBase(value: string | undefined): string | null {
  if (!value) return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Answered below.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`WEFT_OIDC_REDIRECT_BASE must be an http(s) URL such as https://weft.example.com, not "${value}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * `value=scope:role` entries, separated by commas, or by `;` when the text holds one (group
 * names such as LDAP DNs contain commas). The value is everything before the last `=`; scope
 * and role cannot hold `=` or `:`, so the split is never ambiguous.
 */
export function parseRoleMap(text: string): RoleMapEntry[] {
  const parts = text
    .split(text.includes(';') ? ';' : ',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw new Error('WEFT_OIDC_ROLE_MAP is empty: give entries such as acme-admins=acme:admin');
  return parts.map((part) => {
    const eq = part.lastIndexOf('=');
    const colon = part.lastIndexOf(':');
    const bad = (why: string) =>
      new Error(
        `WEFT_OIDC_ROLE_MAP entry "${part}" ${why}; write value=entity:role or value=entity/project:role, e.g. acme-dev=acme:member`,
      );
    if (eq <= 0 || colon < eq) throw bad('is not value=scope:role');
    const value = part.slice(0, eq).trim();
    const scope = part.slice(eq + 1, colon).trim();
    const role = part.slice(colon + 1).trim();
    if (!Role.safeParse(role).success) throw bad(`has role "${role}", not one of ${ROLES.join(', ')}`);
    const scopeOk = scope.includes('/') ? ProjectId.safeParse(scope).success : NamePart.safeParse(scope).success;
    if (!scopeOk) throw bad(`names "${scope}", which is not an entity or entity/project`);
    return { value, scope, role: role as Role };
  });
}
