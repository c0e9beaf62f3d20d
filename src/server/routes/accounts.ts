/** Weft's account endpoints: users (admins) and API keys (your own; admins any). */
import {
  createOwnApiKey,
  createUser,
  listApiKeys,
  requireAdmin,
  revokeApiKey,
  setDefaultEntity,
  toUser,
} from '../domain/accounts/accounts.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { recordFor } from '../audit/auditTrail.js';

// None of these touch a project, so there is no project to check.
const noProjects = () => [];

export const accountRoutes = defineRoutes({
  usersList: {
    runs: 'read',
    projects: noProjects,
    handler: async (_req, { store, user }) => {
      requireAdmin(user, 'list users');
      return { users: (await store.accounts.listUsers()).map(toUser) };
    },
  },

  userCreate: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, ctx) => {
      requireAdmin(ctx.user, 'create users');
      const created = await createUser(ctx, req);
      await recordFor(ctx, {
        action: 'user.created',
        target: created.username,
        entity: null,
        projectId: null,
        details: { is_admin: created.is_admin, entities: created.entities.join(',') },
      });
      return { user: created };
    },
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
