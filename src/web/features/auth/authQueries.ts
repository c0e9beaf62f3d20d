/** Who is signed in: `GET /weft/whoami` through react-query. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** Query keys for the auth feature. */
export const authKeys = {
  all: ['auth'] as const,
  whoami: () => [...authKeys.all, 'whoami'] as const,
  oidcConfig: () => [...authKeys.all, 'oidc-config'] as const,
};

/** The signed-in user; fails with 401 when there is no live session (never signed in, signed out, expired, revoked). */
export function whoamiQueryOptions() {
  return queryOptions({
    queryKey: authKeys.whoami(),
    queryFn: ({ signal }) => api.whoami({}, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Whether single sign-on is on (and reachable), its button's name, and who may still use a password. */
export function oidcConfigQueryOptions() {
  return queryOptions({
    queryKey: authKeys.oidcConfig(),
    queryFn: ({ signal }) => api.oidcConfig({}, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}
