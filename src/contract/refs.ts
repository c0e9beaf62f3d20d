/** Refs: resolving `weave:///` ref URIs to the values they name (docs/api/core.md §3.5). */
import { z } from 'zod';

// POST /refs/read_batch
export const RefsReadBatchReq = z.object({
  refs: z.array(z.string()).describe('At most 1000 weave:/// refs'),
});
export const RefsReadBatchRes = z.object({
  vals: z.array(z.unknown()).describe('Aligned with `refs`; null for a deleted version or a missing path'),
});
