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
import { recordFor } from '../audit/auditTrail.js';
import { ApiError } from '../errors.js';

// None of these touch a project, so there is no project to check.
const noProjects = () => [];

export const sessionRoutes = defineRoutes({
  sessionCreate: {
    runs: 'write',
    handler: async (req, { store, authenticator, request, remoteIp, responseHeaders, audit }) => {
      const userAgent = request.headers.get('user-agent') ?? '';
      const signedIn = await signIn({ store, authenticator }, { ...req, userAgent, address: remoteIp }).catch(async (err: unknown) => {
        // A refused sign-in (wrong password, unknown user, throttled) is a row too; the name is the one tried.
        if (err instanceof ApiError && (err.status === 401 || err.status === 429)) {
          await audit.record({
            actor: { username: req.username, keyId: null, via: 'password' },
            address: remoteIp,
            action: 'auth.sign_in_failed',
            target: req.username,
            entity: null,
            projectId: null,
            outcome: 'failure',
            details: { status: err.status },
          });
        }
        throw err;
      });
      const { token, user, session } = signedIn;
      await audit.record({
        actor: { username: user.username, keyId: null, via: 'password' },
        address: remoteIp,
        action: 'auth.sign_in',
        target: user.username,
        entity: null,
        projectId: null,
        outcome: 'success',
        details: { session_id: session.session_id },
      });
      responseHeaders.append('set-cookie', authenticator.sessions.cookie(token, request.url));
      return { user: whoamiOf(user, await store.accounts.getUser(user.username), 'session'), session };
    },
  },

  sessionEnd: {
    runs: 'write',
    handler: async (_req, { store, authenticator, request, responseHeaders, audit, remoteIp }) => {
      const { ended, username } = await signOut({ store, authenticator }, request.headers.get('cookie') ?? undefined);
      if (ended) {
        const actor = { username, keyId: null, via: 'session' as const };
        await audit.record({
          actor,
          address: remoteIp,
          action: 'auth.sign_out',
          target: username!,
          entity: null,
          projectId: null,
          outcome: 'success',
        });
      }
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
    handler: async (req, ctx) => {
      const { ended, username } = await revokeSession(ctx, ctx.user, req.session_id);
      if (ended)
        await recordFor(ctx, {
          action: 'auth.session_ended',
          target: username,
          entity: null,
          projectId: null,
          details: { session_id: req.session_id },
        });
      return { ended };
    },
  },

  userSessionsRevoke: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const num_ended = await revokeUserSessions(ctx, ctx.user, req.username);
      await recordFor(ctx, {
        action: 'auth.session_ended',
        target: req.username,
        entity: null,
        projectId: null,
        details: { count: num_ended },
      });
      return { num_ended };
    },
  },

  passwordChange: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const ended = await changeOwnPassword(ctx, ctx.user, { ...req, address: ctx.remoteIp });
      await recordFor(ctx, {
        action: 'password.set',
        target: ctx.user.username,
        entity: null,
        projectId: null,
        details: { sessions_ended: ended },
      });
      return { num_sessions_ended: ended };
    },
  },

  userPasswordReset: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const ended = await resetPassword(ctx, ctx.user, req);
      await recordFor(ctx, {
        action: 'password.set',
        target: req.username,
        entity: null,
        projectId: null,
        details: { sessions_ended: ended, reset: true },
      });
      return { num_sessions_ended: ended };
    },
  },
});
