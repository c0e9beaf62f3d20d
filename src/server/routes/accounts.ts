/** Weft's account endpoints: users (admins) and API keys (your own; admins any). */
import {
  createOwnApiKey,
  createUser,
  listApiKeys,
  listManagedUsers,
  requireAdmin,
  revokeApiKey,
  setDefaultEntity,
  setUserRole,
} from '../domain/accounts/accounts.js';
import { requireRole } from '../auth/roles.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { recordFor } from '../audit/auditTrail.js';

// None of these touch a project, so there is no project to check.
const noProjects = () => [];

export const accountRoutes = defineRoutes({
  usersList: {
    runs: 'read',
    projects: noProjects,
    handler: async (_req, { store, user }) => ({ users: await listManagedUsers(store, user) }),
  },

  userCreate: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, audit, remoteIp, user }) => {
      // Entity admins may create plain users in their own entities; everything else is a global admin's.
      if (req.is_admin || req.entities.length === 0) requireAdmin(user, 'create admins or users without an entity');
      for (const entity of req.entities) requireRole(user, entity, 'admin', 'add users to it');
      return { user: await createUser({ store, authenticator, audit, address: remoteIp }, user, req) };
    },
  },

  userRoleSet: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, audit, remoteIp, user }) => ({
      user: await setUserRole({ store, authenticator, audit, address: remoteIp }, user, req),
    }),
  },

  apiKeysList: {
    runs: 'read',
    projects: noProjects,
    handler: async (req, { store, user }) => ({ keys: await listApiKeys(store, user, req.username) }),
  },

  apiKeyCreate: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const created = await createOwnApiKey(ctx.store, ctx.user, req.name);
      // The key id only: the key itself is never recorded.
      await recordFor(ctx, {
        action: 'key.created',
        target: created.api_key.key_id,
        entity: null,
        projectId: null,
        details: { owner: ctx.user.username },
      });
      return created;
    },
  },

  defaultEntitySet: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const changed = await setDefaultEntity(ctx.store, ctx.user, req);
      await recordFor(ctx, {
        action: 'user.changed',
        target: changed.username,
        entity: null,
        projectId: null,
        details: { default_entity: req.entity },
      });
      return { user: changed };
    },
  },

  apiKeyRevoke: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      const revoked = await revokeApiKey(ctx, ctx.user, req.key_id);
      await recordFor(ctx, {
        action: 'key.revoked',
        target: revoked.key_id,
        entity: null,
        projectId: null,
        details: { owner: revoked.username },
      });
      return { api_key: revoked };
    },
  },
});
