/** Weft's own endpoints: accounts and sessions for the dashboard. */
import { z } from 'zod';
import { Role } from './roles.js';

export const WhoamiRes = z.object({
  username: z.string(),
  is_admin: z.boolean(),
  entities: z.array(z.string()).describe('Entities the user belongs to (admins may use every one)'),
  roles: z.record(z.string(), Role).describe('Role per entity (global admins are admins everywhere)'),
  project_roles: z.record(z.string(), Role).describe('Per-project overrides, keyed by entity/project'),
  default_entity: z.string().nullable().describe('Where bare project names go, as the SDKs learn it from /graphql'),
  auth: z.enum(['password', 'api_key', 'session']).describe('How this request was authenticated'),
});
export type WhoamiRes = z.infer<typeof WhoamiRes>;
