/**
 * The audit log as the API reads it (docs/security/audit.md): GET /weft/audit pages through it
 * newest first; GET /weft/audit/export downloads the same filter as CSV or JSON lines. Nothing
 * here changes a row.
 */
import { z } from 'zod';
import { DateTime, NamePart, ProjectId } from './common.js';

export const AUDIT_PAGE_MAX = 500;

const AuditFilterFields = {
  actor: z.string().min(1).max(256).nullish().describe("A username or an API key's id"),
  action: z.string().min(1).max(64).nullish().describe('One action, e.g. `calls.deleted` (`GET /weft/audit` lists them in `actions`)'),
  entity: NamePart.nullish(),
  project_id: ProjectId.nullish(),
  since: DateTime.nullish().describe('Rows at or after this time'),
  until: DateTime.nullish().describe('Rows before this time'),
};

export const AuditListReq = z.object({
  ...AuditFilterFields,
  cursor: z.string().min(1).max(512).nullish().describe("The previous page's `next_cursor`"),
  limit: z.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditListReq = z.infer<typeof AuditListReq>;

export const AuditRow = z.object({
  id: z.string().describe('`<chain>:<seq>`'),
  time: z.string(),
  actor_username: z.string().nullable(),
  actor_key_id: z.string().nullable(),
  actor_via: z.string(),
  address: z.string(),
  action: z.string(),
  target: z.string(),
  entity: z.string().nullable(),
  project_id: z.string().nullable(),
  outcome: z.string(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditRow = z.infer<typeof AuditRow>;

export const AuditListRes = z.object({
  rows: z.array(AuditRow),
  next_cursor: z.string().nullable().describe('Send as `cursor` for the next (older) page; null on the last page'),
  actions: z.array(z.string()).describe('Every action the log records, for a filter'),
});

export const AuditExportReq = z.object({ ...AuditFilterFields, format: z.enum(['csv', 'jsonl']).default('jsonl') });
export type AuditExportReq = z.infer<typeof AuditExportReq>;
export const AuditExportRes = z.string().describe('CSV with a header row, or one AuditRow per line');
