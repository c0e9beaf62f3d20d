/**
 * The set-up HTTP test files share: one test server per file, fresh project names, raw
 * requests as alice, and collecting streamed lines.
 *
 * @example
 * const t = useTestServer();
 * const send = sendAsAlice(t);
 * it('...', async () => expect((await send('/health')).status).toBe(200));
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './testServer.js';

/**
 * Starts a test server before the file's tests and closes it after them. The answer reads
 * through to that server, so it can be captured at module scope and used inside tests.
 */
export function useTestServer(options?: Parameters<typeof startTestServer>[0]): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as TestServer, {
    get: (_, key) => {
      if (!server) throw new Error('The test server starts in beforeAll: use it inside hooks and tests');
      return Reflect.get(server, key);
    },
  });
}

/** Project names `<prefix>-1`, `<prefix>-2`, ...: a fresh project per test, so tests do not see each other's rows. */
export function projectNames(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/**
 * Raw HTTP as alice (for error shapes and hand-written JSON text): status and parsed body,
 * null when the body is not JSON. POST when `json` or `body` is given, else GET.
 */
export function sendAsAlice(t: TestServer) {
  return async function send(path: string, init: { method?: string; json?: unknown; body?: string } = {}) {
    const method = init.method ?? (init.json !== undefined || init.body ? 'POST' : 'GET');
    const res = await t.fetch(path, { method, body: init.body ?? JSON.stringify(init.json) });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
}

/** Every line of a stream. */
export async function collect<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const line of lines) out.push(line);
  return out;
}
