/**
 * `GET /metrics` on a real server with request threads: request figures by route template and
 * status, ingest counted in the write threads and reported by the main thread, thread gauges;
 * who may read it (WEFT_METRICS); and nothing in it names a project, an entity or a call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/apiKeys.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

/** A project name that cannot appear in the output by chance. */
const PROJECT = 'xylophone-quokka-metrics';
const CALL_ID = 'call-id-zanzibar';

let t: TestServer;
let adminKey: string;

beforeAll(async () => {
  t = await startTestServer({ env: { WEFT_READ_THREADS: '2' } });
  adminKey = (await createApiKey(t.server.store, 'admin')).key;
}, 60_000);
afterAll(() => t.close());

const scrape = async (authorization: string | null = `Bearer ${adminKey}`) =>
  fetch(`${t.url}/metrics`, authorization ? { headers: { authorization } } : {});

async function metricsText(): Promise<string> {
  const res = await scrape();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, `name{labels}`; labels given in the order prom-client writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('shows requests by route template and status, calls ingested, and the threads, after traffic', async () => {
    const before = await metricsText();
    // The registry is the process's (one server per process in production), and a test process
    // runs other test files' servers before this one: exact counts are taken as differences.
    const startsBefore = sample(before, 'weft_calls_ingested_total{source="sdk",event="start"}') ?? 0;
    const v2Series = 'weft_http_requests_total{method="POST",route="/v2/:entity/:project/call/start",status="200"}';
    const v2Before = sample(before, v2Series) ?? 0;
    const project = `${t.alice.entity}/${PROJECT}`;
    const ids = [CALL_ID, `${CALL_ID}-2`, `${CALL_ID}-3`];
    for (const id of ids) {
      const start = { project_id: project, id, trace_id: `${id}-trace`, op_name: 'step', started_at: '2026-01-01T00:00:00Z', inputs: {} };
      expect((await t.fetch('/call/start', { json: { start } })).status).toBe(200);
      const end = { project_id: project, id, ended_at: '2026-01-01T00:00:01Z', output: 1, summary: {} };
      expect((await t.fetch('/call/end', { json: { end } })).status).toBe(200);
    }
    // A route with parameters in its path, and one no route matches.
    const v2 = `/v2/${t.alice.entity}/${PROJECT}/call/start`;
    const start = { project_id: project, id: `${CALL_ID}-v2`, op_name: 'step', started_at: '2026-01-01T00:00:00Z', inputs: {} };
    expect((await t.fetch(v2, { json: { start } })).status).toBe(200);
    expect((await t.fetch(`/no/such/${CALL_ID}`)).status).toBe(404);
    expect((await t.fetch('/calls/stream_query', { json: { project_id: project } })).status).toBe(200);

    const text = await metricsText();
    expect(sample(text, 'weft_http_requests_total{method="POST",route="/call/start",status="200"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'weft_http_requests_total{method="POST",route="/call/end",status="200"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, v2Series)! - v2Before).toBe(1);
    expect(sample(text, 'weft_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'weft_http_request_duration_seconds_count{method="POST",route="/calls/stream_query",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('weft_http_request_duration_seconds_bucket{le="0.005",method="POST",route="/call/start",status="200"}');
    // Four starts (three on /call/start, one on the v2 route), counted in a write thread and reported by the main thread.
    expect(sample(text, 'weft_calls_ingested_total{source="sdk",event="start"}')! - startsBefore).toBe(4);
    expect(sample(text, 'weft_request_threads{kind="read"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'weft_request_threads{kind="write"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'weft_request_threads_busy{kind="read"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'weft_request_thread_queue_wait_seconds_count{kind="write"}')).toBeGreaterThanOrEqual(7);
    expect(sample(text, 'weft_write_commit_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'weft_sqlite_database_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'weft_http_requests_in_flight')).toBe(1); // this scrape
    expect(text).toContain('process_resident_memory_bytes');
    // Nothing names the data: no project, entity, user or call id, even from the 404's path.
    for (const name of [PROJECT, t.alice.entity, 'alice', CALL_ID]) expect(text).not.toContain(name);
  });

  it('answers an admin only: 401 without credentials, 403 for a user who is not an admin', async () => {
    const anonymous = await scrape(null);
    expect(anonymous.status).toBe(401);
    const alice = await scrape(`Bearer ${t.alice.apiKey}`);
    expect(alice.status).toBe(403);
    expect((await alice.json()).reason).toMatch(/admin.*WEFT_METRICS=public/);
    // The SDKs' Basic form of the same admin key is accepted too.
    expect((await scrape(`Basic ${Buffer.from(`api:${adminKey}`).toString('base64')}`)).status).toBe(200);
  });
});

describe('WEFT_METRICS', () => {
  it('public: anyone may read it; off: there is no /metrics', async () => {
    const open = await startTestServer({ env: { WEFT_METRICS: 'public' } });
    try {
      const res = await fetch(`${open.url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('weft_http_requests_total');
    } finally {
      await open.close();
    }
    const off = await startTestServer({ env: { WEFT_METRICS: 'off' } });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      expect((await off.fetch('/metrics')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
