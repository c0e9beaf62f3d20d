/**
 * The test users' passwords (testServer.ts), and their hashes made once per test run in vitest's
 * global setup, at the test servers' scrypt N and at OWASP's (a test of the default): a hash at
 * OWASP's is ~0.6 s of scrypt, and most test files start a test server.
 */
import type { TestProject } from 'vitest/node';
import { hashSecret, SCRYPT_N_RANGE, SCRYPT_PARAMS, scryptParamsWithN } from '../auth/secrets.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** testHashKey(password, N) → scrypt hash, for the passwords below. */
    testPasswordHashes: Record<string, string>;
  }
}

/** Test servers' WEFT_PASSWORD_SCRYPT_N: the lowest allowed (docs/configuration.md). */
export const TEST_SCRYPT_N = SCRYPT_N_RANGE.min;

/** The scrypt parameters of test servers, for a test that stores a password hash itself. */
export const TEST_SCRYPT = scryptParamsWithN(TEST_SCRYPT_N);

/** The key of a test password's hash at scrypt cost N. */
export const testHashKey = (password: string, N: number): string => `${N}:${password}`;

export const ADMIN_PASSWORD = 'admin-test-password';

/** A test user's password. */
export const passwordOf = (username: string): string => `${username}-password`;

const TEST_PASSWORDS = [ADMIN_PASSWORD, passwordOf('alice'), passwordOf('bob')];

/** vitest global setup (vite.config.ts). */
export default async function setup(project: TestProject): Promise<void> {
  const made = [TEST_SCRYPT_N, SCRYPT_PARAMS.N].flatMap((N) =>
    TEST_PASSWORDS.map(async (password) => [testHashKey(password, N), await hashSecret(password, scryptParamsWithN(N))] as const),
  );
  const hashes = await Promise.all(made);
  project.provide('testPasswordHashes', Object.fromEntries(hashes));
}
