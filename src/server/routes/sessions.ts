/** Weft's session endpoints: sign in and out, list and end sessions, change and reset passwords. */
import {
  changeOwnPassword,
  listSessions,
  resetPassword,
  revokeSession,
  revokeUserSessions,
  signIn,
  signOut,
} from '../domain/accounts/sessions.js';
import { whoamiOf } from '../domain/accounts/accounts.js';
import { defineRoutes } from '../http/defineRoutes.js';

// None of these touch a project, so there is no project to check.
const noProjects = () => [];

export const sessionRoutes = defineRoutes({
  sessionCreate: {
    runs: 'write',
    handler: async (req, { store, authenticator, request, remoteIp, responseHeaders }) => {
      const userAgent = request.headers.get('user-agent') ?? '';
      const { token, user, session } = await signIn({ store, authenticator }, { ...req, userAgent, address: remoteIp });
      responseHeaders.append('set-cookie', authenticator.sessions.cookie(token, request.url));
      return { user: whoamiOf(user, await store.accounts.getUser(user.username), 'session'), session };
    },
  },

  sessionEnd: {
    runs: 'write',
    handler: async (_req, { store, authenticator, request, responseHeaders }) => {
      const ended = await signOut({ store, authenticator }, request.headers.get('cookie') ?? undefined);
      responseHeaders.append('set-cookie', authenticator.sessions.clearingCookie(request.url));
      return { ended };
    },
  },

  sessionsList: {
    runs: 'read',
    projects: noProjects,
    handler: async (req, { store, authenticator, user }) => ({
      sessions: await listSessions({ store, authenticator }, user, req.username),
    }),
  },

  sessionRevoke: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, user }) => ({
      ended: await revokeSession({ store, authenticator }, user, req.session_id),
    }),
  },

  userSessionsRevoke: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, user }) => ({
      num_ended: await revokeUserSessions({ store, authenticator }, user, req.username),
    }),
  },

  passwordChange: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, user, remoteIp }) => ({
      num_sessions_ended: await changeOwnPassword({ store, authenticator }, user, { ...req, address: remoteIp }),
    }),
  },

  userPasswordReset: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, user }) => ({
      num_sessions_ended: await resetPassword({ store, authenticator }, user, req),
    }),
  },
});
