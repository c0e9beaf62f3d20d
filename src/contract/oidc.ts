/**
 * Single sign-on with an OpenID Connect issuer (group "Weft"; docs/security/sso.md). The start
 * and callback endpoints are browser navigations that answer redirects or an HTML page, not JSON.
 */
import { z } from 'zod';

// GET /weft/oidc/config
export const OidcConfigReq = z.object({});
export const OidcConfigRes = z.object({
  enabled: z.boolean().describe('Single sign-on is configured (WEFT_OIDC_ISSUER)'),
  name: z.string().nullable().describe('What the button says: "Sign in with <name>"'),
  available: z.boolean().describe("The issuer's configuration was read; false while it cannot be reached"),
  unavailable_reason: z.string().nullable().describe('Why single sign-on is unavailable, to show on the login page'),
  password_sign_in: z
    .enum(['everyone', 'break_glass'])
    .describe('`break_glass` with WEFT_OIDC_ONLY: only the break-glass administrators may sign in with a password'),
});

const Param = z.string().max(4096).optional();

// GET /weft/oidc/start
export const OidcStartReq = z.object({
  return_to: Param.describe('A path on this site to open after signing in (anything else is ignored)'),
});
export const OidcRedirectRes = z.string().describe('A redirect (302/303), or an HTML page saying what failed and what to do');

// GET /weft/oidc/callback
export const OidcCallbackReq = z.object({
  code: Param,
  state: Param,
  iss: Param,
  error: Param,
  error_description: Param,
  session_state: Param,
});
