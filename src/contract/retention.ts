/**
 * Retention rules (Weft extension, `/weft/retention`): how many days a project's calls are kept,
 * set per project or as an entity default; a project's own rule wins, and with neither calls are
 * kept forever. Like the reference's `retention_days`, a rule is a whole number of days ≥ 1, or
 * null for none (docs/operations/retention.md).
 */
import { z } from 'zod';
import { NamePart, ProjectId } from './common.js';

const Days = z
  .number()
  .int('days must be a whole number')
  .min(1, 'days must be at least 1, or null to keep calls forever')
  .max(36_500, 'days may be at most 36500 (100 years); use null to keep calls forever');

// GET /weft/retention
export const RetentionReadReq = z.object({
  project_id: ProjectId.nullish().describe('The project whose rule in force to show'),
  entity: NamePart.nullish().describe('The entity whose default rule to show (when project_id is not given)'),
});
export const RetentionReadRes = z.object({
  project_id: z.string().nullable(),
  entity: z.string(),
  days: z.number().nullable().describe('The rule in force: days calls are kept; null: forever'),
  source: z.enum(['project', 'entity', 'none']).describe('Where the rule in force is set'),
  project_days: z.number().nullable().describe("The project's own rule (null when none or when asking for an entity)"),
  entity_days: z.number().nullable().describe("The entity's default rule"),
  updated_at: z.string().nullable().describe('When the rule in force was last set'),
  updated_by: z.string().nullable(),
});
export type RetentionReadRes = z.infer<typeof RetentionReadRes>;

// PUT /weft/retention
export const RetentionSetReq = z.object({
  project_id: ProjectId.nullish().describe('Set the rule of this project ...'),
  entity: NamePart.nullish().describe("... or this entity's default"),
  days: Days.nullable().describe('Days to keep calls, from their start; null removes the rule'),
});
export const RetentionSetRes = RetentionReadRes;
