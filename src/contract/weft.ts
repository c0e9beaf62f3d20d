/** Weft's own endpoints: accounts and sessions for the dashboard. */
import { z } from 'zod';

export const WhoamiRes = z.object({
  username: z.string(),
  is_admin: z.boolean(),
  entities: z.array(z.string()).describe('Entities the user belongs to (admins may use every one)'),
  default_entity: z.string().nullable().describe('Where bare project names go, as the SDKs learn it from /graphql'),
  auth: z.enum(['password', 'api_key', 'session']).describe('How this request was authenticated'),
});
export type WhoamiRes = z.infer<typeof WhoamiRes>;
