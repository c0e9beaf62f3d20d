/**
 * API keys are 40 lowercase alphanumerics (the length W&B keys have, which SDKs expect):
 * the first 10 are a public key id used to find the record, the whole key is the secret.
 * Only its SHA-256 is stored (auth/secrets.ts says why a fast hash is right for random keys);
 * the key is shown once, at creation. Keys stored by older versions as scrypt hashes still verify
 * and are re-stored as SHA-256 at their next use.
 */
import type { Store } from '../store/Store.js';
import { fastHash, randomToken } from './secrets.js';

export const KEY_ID_LENGTH = 10;
export const KEY_LENGTH = 40;

/** Creates a key for `username` and returns it (the only time it is visible). */
export async function createApiKey(store: Store, username: string, name = ''): Promise<{ key: string; keyId: string }> {
  const key = randomToken(KEY_LENGTH);
  const keyId = key.slice(0, KEY_ID_LENGTH);
  await store.accounts.createApiKey({ keyId, username, keyHash: fastHash(key), name, createdAt: Date.now() * 1000 });
  return { key, keyId };
}
