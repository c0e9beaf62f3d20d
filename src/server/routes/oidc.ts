/**
 * Single sign-on endpoints (auth/oidc.ts, docs/security/sso.md). They run on the main thread,
 * where the discovered issuer configuration lives.
 */
import { NotFoundError } from '../errors.js';
import { defineRoutes } from '../http/defineRoutes.js';
import type { OidcSignIn } from '../auth/oidc.js';

const configured = (oidc: OidcSignIn | null | undefined): OidcSignIn => {
  if (!oidc) throw new NotFoundError('Single sign-on is not configured on this server (WEFT_OIDC_ISSUER); sign in with a password');
  return oidc;
};

export const oidcRoutes = defineRoutes({
  oidcConfig: {
    runs: 'main',
    handler: async (_req, { oidc }) =>
      oidc
        ? oidc.status()
        : { enabled: false, name: null, available: false, unavailable_reason: null, password_sign_in: 'everyone' as const },
  },

  oidcStart: {
    runs: 'main',
    handler: async (req, { oidc, request, remoteIp }) => configured(oidc).start(request, req.return_to, remoteIp),
  },

  oidcCallback: {
    runs: 'main',
    handler: async (_req, { oidc, request, remoteIp }) =>
      configured(oidc).callback(request, remoteIp, request.headers.get('user-agent') ?? ''),
  },
});
