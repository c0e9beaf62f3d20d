/**
 * Secrets Weft must be able to read back (model-provider API keys) are encrypted at rest with
 * AES-256-GCM under a server secret: `WEFT_SECRET` when set (any text; a key is derived with
 * HKDF-SHA256), else a random 32-byte key generated once into `<data dir>/secret.key` with mode
 * 0600. Each value gets a fresh 96-bit IV; the record id is bound in as associated data, so a
 * ciphertext copied onto another record does not decrypt. Stored form:
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 *
 * Losing the secret makes stored keys unreadable (they must be entered again); it never
 * exposes them.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRET_FILE = 'secret.key';

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key;
  }

  /** The box for a server: from `WEFT_SECRET`, else the data dir's secret file (created when missing). */
  static open(options: { secret: string | null; dataDir: string }): SecretBox {
    if (options.secret) {
      return new SecretBox(Buffer.from(hkdfSync('sha256', options.secret, 'weft', 'weft secret box v1', 32)));
    }
    const file = join(options.dataDir, SECRET_FILE);
    if (!existsSync(file)) {
      mkdirSync(options.dataDir, { recursive: true });
      try {
        // 'wx': two processes starting together must not both write a key.
        writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    chmodSync(file, 0o600);
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key; remove it to generate a new one`);
    return new SecretBox(key);
  }

  encrypt(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** The plaintext, or null when the value was sealed under another secret or record. */
  decrypt(sealed: string, boundTo: string): string | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** A key as it may be shown: `sk-…abcd` (never more than its first 3 and last 4 characters). */
export function maskSecret(secret: string | null | undefined): string | null {
  if (!secret) return null;
  if (secret.length < 12) return '…' + secret.slice(-2);
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
