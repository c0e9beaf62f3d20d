/**
 * The test users' passwords (testServer.ts), and their hashes made once per test run in vitest's
 * global setup: each hash is ~0.6 s of scrypt, and most test files start a test server.
 */
import type { TestProject } from 'vitest/node';
import { hashSecret } from '../auth/secrets.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Password → scrypt hash, for the passwords below. */
    testPasswordHashes: Record<string, string>;
  }
}

export const ADMIN_PASSWORD = 'admin-test-password';

/** A test user's password. */
export const passwordOf = (username: string): string => `${username}-password`;

const TEST_PASSWORDS = [ADMIN_PASSWORD, passwordOf('alice'), passwordOf('bob')];

/** vitest global setup (vite.config.ts). */
export default async function setup(project: TestProject): Promise<void> {
  const hashes = await Promise.all(TEST_PASSWORDS.map(async (password) => [password, await hashSecret(password)] as const));
  project.provide('testPasswordHashes', Object.fromEntries(hashes));
}
