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
