/** Error bodies: 422 validation details (FastAPI shape) and `{reason}` for everything else. */
import { z } from 'zod';

export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const ValidationErrorBody = z.object({ detail: z.array(ValidationIssue) });
export const ReasonErrorBody = z.looseObject({ reason: z.string() });
