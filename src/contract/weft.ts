/** Weft's own endpoints: accounts and sessions for the dashboard. */
import { z } from 'zod';

export const WhoamiRes = z.object({
  username: z.string(),
  is_admin: z.boolean(),
  entities: z.array(z.string()).describe('Entities the user belongs to (admins may use every one)'),
  auth: z.enum(['password', 'api_key', 'session']).describe('How this request was authenticated'),
});
export type WhoamiRes = z.infer<typeof WhoamiRes>;
