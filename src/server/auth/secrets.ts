/**
 * Secrets at rest, compared in constant time.
 *
 * - Passwords: scrypt at the OWASP Password Storage Cheat Sheet's parameters (N=2^17, r=8, p=1:
 *   128 MiB and ~0.6 s of one core per hash), stored as `scrypt$N$r$p$salt$hash` (base64url
 *   parts). The string records its own parameters, so hashes made with older, cheaper ones
 *   still verify, and `needsRehash` tells the authenticator to replace them on the next
 *   successful login: no migration needed. Each hash costs 128 MiB, so callers bound how many
 *   run at once (auth/hashLimiter.ts).
 * - API keys and session tokens: SHA-256 (`sha256$hex`). A slow hash exists to make guessing a
 *   *human-chosen* secret from a stolen hash expensive; a key is 40 random characters from 36
 *   (206 bits) and a session token 256 random bits, so no amount of guessing finds one, and a
 *   fast hash keeps every SDK request off the expensive path (and off the hash limiter).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters: N (CPU and memory), r (block size), p (parallelism). */
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's scrypt parameters (https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html). */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The N that WEFT_PASSWORD_SCRYPT_N may choose (docs/configuration.md); tests use the lowest. */
export const SCRYPT_N_RANGE = { min: 2 ** 10, max: 2 ** 20 } as const;
const KEY_LENGTH = 32;
/** Memory one hash needs (128·N·r bytes), plus headroom; Node refuses anything above `maxmem`. */
export const SCRYPT_BYTES = 128 * SCRYPT_PARAMS.N * SCRYPT_PARAMS.r;
/** Stored hashes with parameters above these are refused rather than computed (a tampered row must not eat the memory). */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;

function scryptAsync(secret: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const full: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r * options.p + 32 * 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, full, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Hashes a password with a fresh salt at the current parameters (the OWASP ones unless configured). */
export async function hashSecret(secret: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = params;
  const key = await scryptAsync(secret, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `secret` matches the stored hash (scrypt of any parameters, or SHA-256). */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  if (stored.startsWith('sha256$')) return verifyFastHash(secret, stored);
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!(params.N >= 2 && params.N <= MAX_N && params.r >= 1 && params.r <= MAX_R && params.p >= 1 && params.p <= MAX_P)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(secret, Buffer.from(salt, 'base64url'), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True for a stored password hash made with other parameters than today's (it is replaced at the next login). */
export function needsRehash(stored: string, params: ScryptParams = SCRYPT_PARAMS): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== params.N || Number(r) !== params.r || Number(p) !== params.p;
}

/** The scrypt parameters with N from WEFT_PASSWORD_SCRYPT_N (r and p stay OWASP's). */
export const scryptParamsWithN = (N: number): ScryptParams => ({ ...SCRYPT_PARAMS, N });

/** SHA-256 of a high-entropy random secret (API key, session token); see the header for why not scrypt. */
export function fastHash(secret: string): string {
  return `sha256$${createHash('sha256').update(secret).digest('hex')}`;
}

/** Constant-time comparison against a `fastHash`. */
export function verifyFastHash(secret: string, stored: string): boolean {
  const a = Buffer.from(fastHash(secret));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Random lowercase alphanumeric text (unbiased: bytes ≥ 252 are redrawn). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 252 && out.length < length) out += ALPHABET[b % 36];
    }
  }
  return out;
}
