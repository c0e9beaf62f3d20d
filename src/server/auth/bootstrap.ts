/**
 * First start: make sure user `admin` exists. Its password comes from WEFT_ADMIN_PASSWORD,
 * or is generated and returned so the caller can print it once. A later start with
 * WEFT_ADMIN_PASSWORD set resets the admin password to it.
 */
import type { Store } from '../store/Store.js';
import { hashSecret, randomToken } from './secrets.js';

export async function ensureAdmin(store: Store, password: string | null): Promise<string | null> {
  const existing = await store.accounts.getUser('admin');
  if (existing?.passwordHash && !password) return null;
  const chosen = password ?? randomToken(20);
  await store.accounts.upsertUser({ username: 'admin', passwordHash: await hashSecret(chosen), isAdmin: true });
  return password ? null : chosen;
}
