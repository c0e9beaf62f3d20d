/**
 * Calls Weft makes itself carry `attributes.weft.source` (domain/calls/weftMade.ts): here the
 * playground's completions. The calls filter's `weft_made` leaves them out of a list and out of
 * /calls/stats alike, and a request without it (every SDK's) still sees them, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, sendAsAlice } from '../testing/serverSuite.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let fake: FakeOpenAi;
let t: TestServer;
let project: string;
let playgroundCall: string;
const userCall = '019a0000-0000-7000-8000-000000000001';

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-test-key-0001' });
  t = await startTestServer({
    env: { OPENAI_API_KEY: 'sk-test-key-0001', OPENAI_BASE_URL: fake.baseUrl, WEFT_OUTBOUND_ALLOW: '127.0.0.1' },
  });
  project = `${t.alice.entity}/weft-made`;
  const now = Date.now();
  await t.alice.client.callUpsertBatch({
    batch: [
      {
        mode: 'start',
        req: {
          start: {
            project_id: project,
            id: userCall,
            trace_id: userCall,
            op_name: 'chat',
            started_at: new Date(now - 5_000).toISOString(),
            attributes: {},
            inputs: { q: 'hi' },
          },
        },
      },
      { mode: 'end', req: { end: { project_id: project, id: userCall, ended_at: new Date(now - 4_000).toISOString(), summary: {} } } },
    ],
  });
  const res = await sendAsAlice(t)('/completions/create', {
    json: { project_id: project, inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] } },
  });
  expect(res.status).toBe(200);
  playgroundCall = (res.body as { weave_call_id: string }).weave_call_id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const ids = async (filter: Record<string, unknown> | null) =>
  (await collect(t.alice.client.callsStreamQuery({ project_id: project, filter, columns: ['id'] }))).map((c) => c.id).sort();

describe("Weft's own calls", () => {
  it('marks a playground completion with attributes.weft.source', async () => {
    const { call } = await t.alice.client.callRead({ project_id: project, id: playgroundCall });
    expect(call!.attributes).toEqual({ weft: { source: 'playground' } });
  });

  it('lists them unless weft_made is false; true lists only them', async () => {
    expect(await ids(null)).toEqual([userCall, playgroundCall].sort());
    expect(await ids({ trace_roots_only: true })).toEqual([userCall, playgroundCall].sort());
    expect(await ids({ trace_roots_only: true, weft_made: false })).toEqual([userCall]);
    expect(await ids({ weft_made: true })).toEqual([playgroundCall]);
    expect((await t.alice.client.callsQueryStats({ project_id: project, filter: { weft_made: false } })).count).toBe(1);
  });

  it('leaves them out of /calls/stats with the same filter', async () => {
    const stats = (filter: Record<string, unknown>) =>
      t.alice.client.callStats({
        project_id: project,
        start: new Date(Date.now() - 3_600_000).toISOString(),
        granularity: 7_200,
        filter,
        call_metrics: [{ metric: 'call_count', aggregations: ['sum'] }],
      });
    const total = (res: Awaited<ReturnType<typeof stats>>) => res.call_buckets.reduce((n, b) => n + Number(b.sum_call_count ?? 0), 0);
    expect(total(await stats({ trace_roots_only: true }))).toBe(2);
    expect(total(await stats({ trace_roots_only: true, weft_made: false }))).toBe(1);
  });
});
