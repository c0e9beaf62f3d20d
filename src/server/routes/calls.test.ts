import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('POST /call/start', () => {
  it('stores a call that reads back with summary.weave', async () => {
    const project_id = `${t.alice.entity}/smoke`;
    const { id } = await t.alice.client.callStart({
      start: { project_id, op_name: 'chat', started_at: '2024-01-01T00:00:00Z', inputs: { q: 1 }, attributes: {} },
    });
    const { call } = await t.alice.client.callRead({ project_id, id });
    expect(call?.inputs).toEqual({ q: 1 });
    expect(call?.summary).toEqual({ weave: { status: 'running', trace_name: 'chat' } });
  });
});
