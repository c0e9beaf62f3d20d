/**
 * A real Weft server for tests: a fresh temporary data directory (a real SQLite file), a
 * random port, and two users in two entities so isolation can be checked.
 *
 * @example
 * const t = await startTestServer();
 * await t.alice.callStart({ start: {...} });   // typed client, logged in as alice (entity "alice-co")
 * await t.close();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createClient, type WeftClient } from '../../client/index.js';
import { createApiKey } from '../auth/apiKeys.js';
import { hashSecret, type ScryptParams } from '../auth/secrets.js';
import { loadConfig, storeConfigOf, type ServerConfig } from '../config.js';
import { clickhouseOptions, openStore } from '../store/openStore.js';
import { startServer, type RunningServer, type StartOptions } from '../process/main.js';
import type { Clock } from '../services.js';
import { claimClickHouseDatabase } from './clickhouseDatabases.js';
import { ADMIN_PASSWORD, passwordOf, TEST_SCRYPT_N, testHashKey } from './testPasswords.js';

export { ADMIN_PASSWORD };

/**
 * For a test that builds its own config (loadConfig + startServer) and tests neither request
 * threads nor the password cost: no threads and cheap hashes, as startTestServer's servers.
 */
export const LIGHT_SERVER: Record<string, string> = { WEFT_THREADS: '0', WEFT_PASSWORD_SCRYPT_N: String(TEST_SCRYPT_N) };

/**
 * The test users' password hashes: made once per run by the global setup (testPasswords.ts), else
 * once per test process, at each scrypt N a test server uses. Test servers hash at
 * TEST_SCRYPT_N unless a test sets WEFT_PASSWORD_SCRYPT_N (authAbuse.test.ts keeps OWASP's):
 * sign-ins then cost the tests ~5 ms of scrypt, not ~0.6 s (docs/performance.md "Test time").
 */
const hashes = new Map<string, Promise<string>>();
/** The global setup's hashes; none outside a vitest run (a benchmark in bench/ starts servers too). */
function injected(): Record<string, string> | undefined {
  try {
    return inject('testPasswordHashes');
  } catch {
    return undefined;
  }
}
function hashOnce(password: string, scrypt: ScryptParams): Promise<string> {
  const key = testHashKey(password, scrypt.N);
  const made = injected()?.[key];
  if (made) return Promise.resolve(made);
  if (!hashes.has(key)) hashes.set(key, hashSecret(password, scrypt));
  return hashes.get(key)!;
}

export interface TestUser {
  username: string;
  password: string;
  entity: string;
  apiKey: string;
  /** Client authenticated with the user's API key (as the SDKs do). */
  client: WeftClient;
  /** `Authorization` header value for the API key. */
  authHeader: string;
}

export interface TestServer {
  url: string;
  dataDir: string;
  server: RunningServer;
  admin: WeftClient;
  alice: TestUser;
  bob: TestUser;
  /** A client with arbitrary credentials (or none). */
  clientAs(auth: { username: string; password: string } | null): WeftClient;
  /** Raw HTTP with alice's credentials unless `headers` says otherwise. */
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    resolveHost?: StartOptions['resolveHost'];
    dashboardDir?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-test-'));
  const env = {
    WEFT_DATA_DIR: dataDir,
    PORT: '0',
    WEFT_LOG_LEVEL: 'silent',
    WEFT_VALIDATE_RESPONSES: '1',
    WEFT_PASSWORD_SCRYPT_N: String(TEST_SCRYPT_N),
    ...threadsEnv(options.env),
    ...options.env,
  };
  let config = loadConfig(env);
  // A ClickHouse database is migrated first, as `weft migrate` would be run before `weft serve`;
  // serverEnv's stand-in name gets a pooled one (clickhouseDatabases.ts).
  const clickhouse = config.store === 'clickhouse' ? await claimClickHouseDatabase(clickhouseOptions(storeConfigOf(config))) : null;
  if (clickhouse) config = loadConfig({ ...env, WEFT_CLICKHOUSE_DATABASE: clickhouse.database });
  await addAdmin(config);
  const server = await startServer(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  const url = server.url;
  const clientAs = (auth: { username: string; password: string } | null) => createClient({ baseUrl: url, auth });

  async function makeUser(username: string, entity: string): Promise<TestUser> {
    const password = passwordOf(username);
    await server.store.accounts.upsertUser({ username, entities: [entity], passwordHash: await hashOnce(password, config.scrypt) });
    const { key } = await createApiKey(server.store, username);
    return {
      username,
      password,
      entity,
      apiKey: key,
      client: clientAs({ username: 'api', password: key }),
      authHeader: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`,
    };
  }

  const alice = await makeUser('alice', 'alice-co');
  const bob = await makeUser('bob', 'bob-co');
  return {
    url,
    dataDir,
    server,
    admin: clientAs({ username: 'admin', password: ADMIN_PASSWORD }),
    alice,
    bob,
    clientAs,
    fetch: (path, init = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', alice.authHeader);
      // fetch labels a string body text/plain, which JSON endpoints refuse (http/contentType.ts);
      // these are JSON requests. A test of "no Content-Type" sends bytes, which fetch leaves unlabelled.
      const body = json !== undefined ? JSON.stringify(json) : rest.body;
      if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${url}${path}`, {
        method: json !== undefined ? 'POST' : 'GET',
        ...rest,
        headers,
        body,
      });
    },
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      await clickhouse?.release();
    },
  };
}

/**
 * Request threads only for the tests that ask for them (any WEFT_*THREADS* or budget setting):
 * each thread loads the whole server, which cost most of a route test's time. The threads keep
 * their own suites in threads/, and sameAnswers.test.ts compares threaded with unthreaded answers.
 */
function threadsEnv(env: Record<string, string> | undefined): Record<string, string> {
  const asksForThreads = Object.keys(env ?? {}).some((k) => k.includes('THREADS') || k === 'WEFT_READ_BUDGET_MS');
  return asksForThreads ? { WEFT_READ_THREADS: '2', WEFT_WRITE_THREADS: '1' } : { WEFT_THREADS: '0' };
}

/**
 * Writes the admin (password ADMIN_PASSWORD) before the server starts, with the hash made once
 * per test process: the server then finds an admin, as on a restart, and hashes nothing, where
 * WEFT_ADMIN_PASSWORD would cost each of a test run's ~80 server starts a ~0.6 s scrypt. The
 * first start that creates the admin from WEFT_ADMIN_PASSWORD is bootstrap.test.ts's, and every
 * test that spawns `weft serve` (durability, TLS, jobs, replicas) starts that way.
 */
async function addAdmin(config: ServerConfig): Promise<void> {
  const store = await openStore(storeConfigOf(config));
  try {
    await store.accounts.upsertUser({ username: 'admin', passwordHash: await hashOnce(ADMIN_PASSWORD, config.scrypt), isAdmin: true });
  } finally {
    await store.close();
  }
}
