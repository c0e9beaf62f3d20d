/**
 * First start: make sure user `admin` exists.
 *
 * SQLite (one server, one file): the password comes from WEFT_ADMIN_PASSWORD, or is generated
 * and returned so the caller can print it once. A later start with WEFT_ADMIN_PASSWORD set
 * resets the admin password to it.
 *
 * ClickHouse (any number of replicas, started in any order): a generated password cannot work,
 * since replicas starting together would each generate one, each print its own, and only the
 * last one written would be right. So the first start needs WEFT_ADMIN_PASSWORD, given the same
 * to every replica; replicas racing to create the admin write the same password. Once the admin
 * exists, WEFT_ADMIN_PASSWORD no longer changes it: replicas restart at any time, and a restart
 * must not undo a password changed in the dashboard (`weft user add admin --admin --password`
 * resets it on purpose).
 */
import type { Store } from '../store/Store.js';
import { hashSecret, randomToken, verifySecret, type ScryptParams } from './secrets.js';

export interface AdminBootstrap {
  /** The generated password, to print once; null when none was generated. */
  generated: string | null;
  /** Something the operator should know (WEFT_ADMIN_PASSWORD was not applied), else null. */
  notice: string | null;
}

/** Why a replica refuses its first start on ClickHouse without WEFT_ADMIN_PASSWORD. */
export const ADMIN_PASSWORD_REQUIRED =
  'This ClickHouse database has no admin user yet, and Weft does not generate a password here: ' +
  'several replicas starting together would each print a different one. Start this replica (and ' +
  'every other) with the same WEFT_ADMIN_PASSWORD, for example WEFT_ADMIN_PASSWORD="$(openssl rand -base64 18)"; ' +
  'it is needed only until the admin exists.';

export async function ensureAdmin(store: Store, password: string | null, scrypt?: ScryptParams): Promise<AdminBootstrap> {
  const existing = await store.accounts.getUser('admin');
  const stored = existing?.passwordHash ?? null;
  const replicated = store.backend === 'clickhouse';
  if (stored) {
    // Unchanged: no write, so restarts do not churn the admin row (or, on ClickHouse, every replica's cache).
    if (!password || (await verifySecret(password, stored))) return { generated: null, notice: null };
    if (replicated) {
      return {
        generated: null,
        notice:
          'WEFT_ADMIN_PASSWORD is not the admin password: it was changed since the admin was created. On ClickHouse it sets ' +
          'only the first password; to reset it, run `weft user add admin --admin --password <new>` with the same WEFT_CLICKHOUSE_* settings.',
      };
    }
  }
  if (!password && replicated) throw new Error(ADMIN_PASSWORD_REQUIRED);
  const chosen = password ?? randomToken(20);
  await store.accounts.upsertUser({ username: 'admin', passwordHash: await hashSecret(chosen, scrypt), isAdmin: true });
  return { generated: password ? null : chosen, notice: null };
}
