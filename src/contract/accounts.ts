/**
 * Weft's account endpoints (group "Weft", not part of the Weave interface): users with their
 * entities, and API keys. Secrets only travel inward (a password on create) or outward once
 * (a new API key); what is stored and listed never holds them.
 */
import { z } from 'zod';
import { NamePart } from './common.js';
import { Role } from './roles.js';

/** A login name: letters, digits, `.`, `_`, `-`; "api" is taken by API-key logins. */
export const Username = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .refine((u) => u !== 'api', '"api" is reserved for API-key logins')
  .describe('Login name');

/** An entity, the first half of `<entity>/<project>`: a name as every project part is (common.ts). */
export const Entity = NamePart;

/** A user as listed: no password hash, ever. */
export const User = z.object({
  username: z.string(),
  is_admin: z.boolean(),
  entities: z.array(z.string()).describe('Entities the user belongs to (the keys of `roles`)'),
  roles: z.record(z.string(), Role).describe('Role per entity'),
  project_roles: z.record(z.string(), Role).describe('Per-project overrides, keyed by entity/project'),
  default_entity: z.string().nullable().describe('Where bare project names go (`weave.init("project")`); the first entity unless changed'),
  created_at: z.string(),
  has_password: z.boolean().describe('False for users who log in with API keys only'),
});
export type User = z.infer<typeof User>;

// GET /weft/users
export const UsersListReq = z.object({});
export const UsersListRes = z.object({ users: z.array(User) });

// POST /weft/users
export const UserCreateReq = z
  .object({
    username: Username,
    password: z.string().min(8, 'must be at least 8 characters').max(1024),
    entities: z.array(Entity).max(100).default([]),
    role: Role.default('member').describe('Role in each of `entities`'),
    is_admin: z.boolean().default(false),
  })
  .refine((u) => u.is_admin || u.entities.length > 0, {
    message: 'give the user at least one entity, or make them an admin',
    path: ['entities'],
  });
export const UserCreateRes = z.object({ user: User });

/** An API key as listed: its public id and label, never the key. */
export const ApiKey = z.object({
  key_id: z.string().describe('The first 10 characters of the key, which identify it'),
  name: z.string(),
  username: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

// GET /weft/api_keys
export const ApiKeysListReq = z.object({
  username: z.string().nullish().describe("Admins only: another user's keys; default your own"),
});
export const ApiKeysListRes = z.object({ keys: z.array(ApiKey).describe('Oldest first, revoked keys included') });

// POST /weft/api_keys
export const ApiKeyCreateReq = z.object({
  name: z.string().max(100).default('').describe('A label to recognise the key by, e.g. "laptop" or "CI"'),
});
export const ApiKeyCreateRes = z.object({
  key: z.string().describe('The key itself: shown this once, only its hash is stored'),
  api_key: ApiKey,
});

// DELETE /weft/api_keys/:key_id
export const ApiKeyRevokeReq = z.object({ key_id: z.string().min(1) });
export const ApiKeyRevokeRes = z.object({ api_key: ApiKey.describe('The key, now revoked (revoking twice is harmless)') });

// PUT /weft/default_entity
export const DefaultEntitySetReq = z.object({
  entity: Entity.describe("One of the user's entities (admins may choose any)"),
  username: z.string().nullish().describe("Admins only: another user's default; default your own"),
});
export const DefaultEntitySetRes = z.object({ user: User });

// PUT /weft/users/:username/roles
export const UserRoleSetReq = z.object({
  username: z.string().min(1),
  scope: z
    .string()
    .regex(/^[^/]+(\/[^/]+)?$/, 'must be an entity or <entity>/<project>')
    .describe('An entity (the membership) or <entity>/<project> (an override for one project)'),
  role: Role.nullable().describe('null removes the membership or the override'),
});
export const UserRoleSetRes = z.object({ user: User });
