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
    handler: async (req, { store, authenticator, user }) => {
      requireAdmin(user, 'create users');
      return { user: await createUser({ store, authenticator }, req) };
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
    handler: (req, { store, user }) => createOwnApiKey(store, user, req.name),
  },

  defaultEntitySet: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, user }) => ({ user: await setDefaultEntity(store, user, req) }),
  },

  apiKeyRevoke: {
    runs: 'write',
    projects: noProjects,
    handler: async (req, { store, authenticator, clock, user }) => ({
      api_key: await revokeApiKey({ store, authenticator, clock }, user, req.key_id),
    }),
  },
});
