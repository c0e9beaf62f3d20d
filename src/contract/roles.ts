/**
 * What a user may do in an entity (or one project of it), weakest first: each role can do
 * everything the ones before it can (docs/security/roles.md). The order and the rules over it
 * are in roleOrder.ts, which has no zod, for the dashboard.
 */
import { z } from 'zod';
import { ROLES } from './roleOrder.js';

export { administeredEntities, roleAtLeast, roleIn, ROLES, type RoleHolder } from './roleOrder.js';

export const Role = z
  .enum(ROLES)
  .describe('viewer: read; annotator: also feedback and queues; member: also writes; admin: also members and rules');
export type Role = z.infer<typeof Role>;
