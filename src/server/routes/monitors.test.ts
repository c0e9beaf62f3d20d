/**
 * Monitors over real HTTP against the OpenAI stand-in: a `Monitor` object (as the reference
 * dashboard saves it) makes the server score a sampled share of the calls that end afterwards
 * and match its ops, through the job runner, as runnable feedback with `trigger_ref` = the
 * monitor. Sampling 1 scores every matching call, 0 none, an inactive monitor none; the queue of
 * ended calls survives a restart; the judge's own calls are never monitored.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WeftClient } from '../../client/index.js';
import { loadConfig } from '../config.js';
import { startServer } from '../process/main.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../testing/llmFixture.js';
import { projectNames } from '../testing/serverSuite.js';
import { LIGHT_SERVER, startTestServer, type TestServer } from '../testing/testServer.js';
import { uuidv7 } from '../core/ids.js';
import { waitFor } from '../testing/waitFor.js';

let fake: FakeOpenAi;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await startTestServer({ env: { OPENAI_BASE_URL: fake.baseUrl, WEFT_OUTBOUND_ALLOW: '127.0.0.1', WEFT_MONITOR_POLL_MS: '100' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/monitors');

async function saveMonitor(
  client: WeftClient,
  projectId: string,
  name: string,
  m: { ops: string[] | null; rate: number; active: boolean; scorers: string[] },
): Promise<string> {
  const { digest } = await client.objCreate({
    obj: {
      project_id: projectId,
      object_id: name,
      val: {
        _type: 'Monitor',
        name,
        description: '',
        ref: null,
        _class_name: 'Monitor',
        _bases: ['Object', 'BaseModel'],
        op_names: m.ops?.map((op) => `weave:///${projectId}/op/${op}:*`) ?? null,
        query: null,
        sampling_rate: m.rate,
        scorers: m.scorers,
        active: m.active,
      },
    },
  });
  return `weave:///${projectId}/object/${name}:${digest}`;
}

/** Logs one finished call of `op` (start and end as two requests, as the SDKs send them). */
async function logCall(client: WeftClient, projectId: string, op: string, input: string): Promise<string> {
  const id = uuidv7();
  const now = new Date().toISOString();
  await client.callStart({
    start: {
      project_id: projectId,
      id,
      trace_id: id,
      op_name: `weave:///${projectId}/op/${op}:v0digest`,
      started_at: now,
      attributes: {},
      inputs: { question: input },
    },
  });
  await client.callEnd({ end: { project_id: projectId, id, ended_at: now, output: `answer to ${input}`, summary: {} } });
  return id;
}

async function judgeFeedback(client: WeftClient, projectId: string) {
  const { result } = await client.feedbackQuery({
    project_id: projectId,
    query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.runnable.helpfulness' }] } },
  });
  return result;
}
const scoredIds = (rows: { weave_ref?: unknown }[]) => rows.map((r) => String(r.weave_ref).split('/').pop()).sort();

describe('monitors', () => {
  it('with sampling 1 scores every call of its ops that ends, and only those', async () => {
    const p = project();
    const { client } = t.alice;
    const f = await publishLlmEvaluation(client, p, { model: 'gpt-4o-mini' });
    const monitorRef = await saveMonitor(client, p, 'answers', { ops: ['answer'], rate: 1, active: true, scorers: [f.judgeRef] });
    const other = await logCall(client, p, 'other', 'not watched');
    const watched = [await logCall(client, p, 'answer', 'one'), await logCall(client, p, 'answer', 'two two')];
    const rows = await waitFor(
      () => judgeFeedback(client, p),
      (r) => r.length >= 2,
    );
    expect(scoredIds(rows)).toEqual([...watched].sort());
    expect(scoredIds(rows)).not.toContain(other);
    for (const row of rows) {
      expect(row).toMatchObject({ trigger_ref: monitorRef, runnable_ref: f.judgeRef, payload: { output: { score: expect.any(Number) } } });
    }
    // The job that scored them is listed with the monitor as its source.
    const { jobs } = await client.jobsList({ project_id: p, kind: 'calls_score', limit: 50 });
    expect(jobs.some((j) => j.payload.source === monitorRef && j.status === 'succeeded')).toBe(true);
  });

  it('with sampling 0, or inactive, scores nothing', async () => {
    const p = project();
    const { client } = t.alice;
    const f = await publishLlmEvaluation(client, p, { model: 'gpt-4o-mini' });
    await saveMonitor(client, p, 'never', { ops: ['zero'], rate: 0, active: true, scorers: [f.judgeRef] });
    await saveMonitor(client, p, 'paused', { ops: ['paused'], rate: 1, active: false, scorers: [f.judgeRef] });
    await saveMonitor(client, p, 'control', { ops: ['control'], rate: 1, active: true, scorers: [f.judgeRef] });
    for (let i = 0; i < 5; i++) await logCall(client, p, 'zero', `zero ${i}`);
    for (let i = 0; i < 5; i++) await logCall(client, p, 'paused', `paused ${i}`);
    // The inbox is handled in order: once the control call (logged last) is scored, the others were swept.
    const control = await logCall(client, p, 'control', 'control');
    const rows = await waitFor(
      () => judgeFeedback(client, p),
      (r) => r.length >= 1,
    );
    expect(scoredIds(rows)).toEqual([control]);
  });

  it('pausing a monitor (a new version with active false) stops it; the judge never scores its own calls', async () => {
    const p = project();
    const { client } = t.alice;
    const f = await publishLlmEvaluation(client, p, { model: 'gpt-4o-mini' });
    // Every op: the judge's own LLMAsAJudgeScorer.score / predict / completion calls would match.
    await saveMonitor(client, p, 'everything', { ops: null, rate: 1, active: true, scorers: [f.judgeRef] });
    const first = await logCall(client, p, 'anything', 'first');
    await waitFor(
      () => judgeFeedback(client, p),
      (r) => r.length >= 1,
    );
    const second = await logCall(client, p, 'anything', 'second');
    const rows = await waitFor(
      () => judgeFeedback(client, p),
      (r) => r.length >= 2,
    );
    // By now the judge calls of the first scoring ended and were swept too: none was scored.
    expect(scoredIds(rows)).toEqual([first, second].sort());

    await saveMonitor(client, p, 'everything', { ops: null, rate: 1, active: false, scorers: [f.judgeRef] });
    await saveMonitor(client, p, 'control', { ops: ['control'], rate: 1, active: true, scorers: [f.judgeRef] });
    await logCall(client, p, 'anything', 'after pause');
    const control = await logCall(client, p, 'control', 'control');
    const after = await waitFor(
      () => judgeFeedback(client, p),
      (r) => r.length >= 3,
    );
    expect(scoredIds(after)).toEqual([first, second, control].sort());
  });

  it('fails its job saying what to configure when the judge model is not served', async () => {
    const p = project();
    const { client } = t.alice;
    const f = await publishLlmEvaluation(client, p, { model: 'gpt-4o-mini', judgeModel: 'custom::missing::judge' });
    await saveMonitor(client, p, 'misconfigured', { ops: ['answer'], rate: 1, active: true, scorers: [f.judgeRef] });
    await logCall(client, p, 'answer', 'one');
    const jobs = await waitFor(
      async () => (await client.jobsList({ project_id: p, kind: 'calls_score', limit: 10 })).jobs,
      (js) => js.some((j) => j.status === 'failed'),
    );
    expect(jobs[0]!.error).toMatch(/Scorer helpfulness uses custom::missing::judge: No provider named "missing"/);
  });
});

describe('monitors across a restart', () => {
  // Two server starts and an evaluation publish: a longer timeout for a loaded machine (nothing here is timed).
  it('scores the calls that ended while no sweep ran, after the server restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-monitor-restart-'));
    const base = {
      ...LIGHT_SERVER,
      WEFT_DATA_DIR: dataDir,
      WEFT_ADMIN_PASSWORD: 'monitor-admin',
      PORT: '0',
      WEFT_LOG_LEVEL: 'silent',
      OPENAI_BASE_URL: fake.baseUrl,
      WEFT_OUTBOUND_ALLOW: '127.0.0.1',
    };
    const admin = { username: 'admin', password: 'monitor-admin' };
    const p = 'admin/monitor-restart';
    // The first server sweeps only at start (an hour between ticks): the ends stay queued.
    const first = await startServer(loadConfig({ ...base, WEFT_MONITOR_POLL_MS: '3600000' }));
    let client = createClient({ baseUrl: first.url, auth: admin });
    const f = await publishLlmEvaluation(client, p, { model: 'gpt-4o-mini' });
    await saveMonitor(client, p, 'answers', { ops: ['answer'], rate: 1, active: true, scorers: [f.judgeRef] });
    const ids = [await logCall(client, p, 'answer', 'before restart'), await logCall(client, p, 'answer', 'also before')];
    expect(await judgeFeedback(client, p)).toEqual([]);
    await first.close();

    const second = await startServer(loadConfig({ ...base, WEFT_MONITOR_POLL_MS: '100' }));
    try {
      client = createClient({ baseUrl: second.url, auth: admin });
      const rows = await waitFor(
        () => judgeFeedback(client, p),
        (r) => r.length >= 2,
      );
      expect(scoredIds(rows)).toEqual([...ids].sort());
    } finally {
      await second.close();
    }
  }, 90_000);
});
