/**
 * Idle keep-alive connections are kept 65 s (keepAlive.ts): the server says so in its Keep-Alive
 * header, which clients such as undici use to retire pooled connections before the server does.
 */
import { Agent, get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/testServer.js';

describe('keep-alive', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('keeps an idle connection for 65 s and says so', async () => {
    const agent = new Agent({ keepAlive: true });
    const header = await new Promise<string | undefined>((resolve, reject) => {
      get(`${t.url}/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['keep-alive'] as string | undefined));
      }).on('error', reject);
    });
    agent.destroy();
    expect(header).toBe('timeout=65');
  });
});
