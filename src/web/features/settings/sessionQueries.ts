/**
 * Sessions and passwords through react-query: your signed-in sessions (or a user's, for
 * admins), ending them, changing your password and (admins) setting a user's password.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { settingsKeys } from './settingsQueries.js';

/** Query keys for sessions, under the settings prefix. */
export const sessionKeys = {
  all: [...settingsKeys.all, 'sessions'] as const,
  of: (username: string | null) => [...sessionKeys.all, username ?? 'me'] as const,
};

/** Your sessions (or `username`'s, for admins), oldest first, the current one marked. */
export function sessionsQueryOptions(username: string | null = null) {
  return queryOptions({
    queryKey: sessionKeys.of(username),
    queryFn: async ({ signal }) => (await api.sessionsList({ username }, { signal })).sessions,
  });
}

/** End one session, end all of a user's sessions (admins), change your password, reset a user's (admins). */
export function useSessionMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: sessionKeys.all });
  const revoke = useMutation({ mutationFn: (sessionId: string) => api.sessionRevoke({ session_id: sessionId }), onSuccess });
  const revokeUser = useMutation({ mutationFn: (username: string) => api.userSessionsRevoke({ username }), onSuccess });
  const changePassword = useMutation({
    mutationFn: (req: { current_password: string; new_password: string }) => api.passwordChange(req),
    onSuccess,
  });
  const resetPassword = useMutation({
    mutationFn: (req: { username: string; new_password: string }) => api.userPasswordReset(req),
    onSuccess,
  });
  return { revoke, revokeUser, changePassword, resetPassword };
}
