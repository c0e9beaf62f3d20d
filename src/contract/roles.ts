/**
 * What a user may do in an entity (or one project of it), weakest first: each role can do
 * everything the ones before it can (docs/security/roles.md).
 */
import { z } from 'zod';

export const ROLES = ['viewer', 'annotator', 'member', 'admin'] as const;
export const Role = z
  .enum(ROLES)
  .describe('viewer: read; annotator: also feedback and queues; member: also writes; admin: also members and rules');
export type Role = z.infer<typeof Role>;

/** True when `have` allows what `need` allows. */
export const roleAtLeast = (have: Role, need: Role): boolean => ROLES.indexOf(have) >= ROLES.indexOf(need);
