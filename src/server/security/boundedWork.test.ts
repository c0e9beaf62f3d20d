/**
 * Work a request asks for is bounded before it starts (docs/security/bounded-work.md), over real
 * HTTP against a real server and the OpenAI stand-in on 127.0.0.1:
 * - evaluate_model refuses `trials`, scorer lists and rows × trials × (1 + scorers) past their
 *   limits with a 400 naming the setting, and queues nothing; calls/score likewise;
 * - a scorer (or call) named twice runs once;
 * - a job over the limits that is already queued (an older server's) fails with the reason when
 *   it runs, and a job whose process died twice is failed rather than resumed a third time;
 * - refs/read_batch reads a repeated ref once and answers 413 past its byte limit, 400 past its
 *   ref count, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../core/ids.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { LLM_ROWS, publishLlmEvaluation } from '../testing/llmFixture.js';
import { collect, projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { waitFor } from '../testing/waitFor.js';

let fake: FakeOpenAi;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await startTestServer({
    env: {
      OPENAI_BASE_URL: fake.baseUrl,
      WEFT_OUTBOUND_ALLOW: '127.0.0.1',
      WEFT_JOB_STALE_MS: '1000',
      WEFT_MAX_JOB_MODEL_CALLS: '50',
      WEFT_MAX_JOB_SCORERS: '4',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/bounded');
const send = (path: string, json: unknown) => sendAsAlice(t)(path, { json });

/** An Evaluation over the fixture's dataset with these scorers and trials. */
async function evaluation(p: string, f: { datasetRef: string }, scorers: string[], trials: number): Promise<string> {
  const { digest } = await t.alice.client.objCreate({
    obj: {
      project_id: p,
      object_id: 'bounded-eval',
      val: { _class_name: 'Evaluation', _bases: ['Object', 'BaseModel'], name: 'bounded-eval', dataset: f.datasetRef, scorers, trials },
    },
  });
  return `weave:///${p}/object/bounded-eval:${digest}`;
}

const jobsOf = async (p: string) => (await sendAsAlice(t)(`/weft/jobs?project_id=${encodeURIComponent(p)}`)).body.jobs as any[];

// First in the file: its claims, made as dead processes, take the oldest queued job.
describe('a job that brought its process down', () => {
  it('a job whose process died twice is failed, not resumed a third time', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const jobId = uuidv7();
    const store = t.server.store;
    const now = Date.now() * 1000;
    const second = 1_000_000;
    // Two processes claimed it and died mid-run (their heartbeats stopped). Queued and claimed
    // with no await on a timer in between, so this server's runner cannot take it first.
    await store.jobs.enqueue({
      id: jobId,
      projectId: p,
      kind: 'evaluate_model',
      payload: { evaluation_ref: f.evaluationRef, model_ref: f.modelRef, call_id: uuidv7() },
      createdBy: 'alice',
      createdAt: now - 30 * second,
    });
    const first = await store.jobs.claimNext({ owner: 'died-1', now: now - 20 * second, staleBefore: now - 25 * second, maxAttempts: 9 });
    const again = await store.jobs.claimNext({ owner: 'died-2', now: now - 10 * second, staleBefore: now - 15 * second, maxAttempts: 9 });
    expect([first?.id, again?.id, again?.attempts]).toEqual([jobId, jobId, 2]);
    const job = await waitFor(
      async () => (await t.alice.client.jobRead({ project_id: p, job_id: jobId })).job,
      (j) => j.status !== 'running' && j.status !== 'queued',
    );
    expect(job).toMatchObject({ status: 'failed', attempts: 2 });
    expect(job.error).toMatch(/Interrupted 2 time\(s\) by a server restart or crash/);
  });
});

describe('evaluate_model and calls/score are bounded before they are queued', () => {
  it('refuses trials past WEFT_MAX_EVAL_TRIALS with 400 and queues nothing', async () => {
    const p = project();
    // A slow model, so a job queued by mistake would still be running when the test ends.
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'slow-5000' });
    for (const trials of [1_000_000, 1e9]) {
      const res = await send('/evaluations/evaluate_model', {
        project_id: p,
        evaluation_ref: await evaluation(p, f, [f.judgeRef], trials),
        model_ref: f.modelRef,
      });
      expect(res.status).toBe(400);
      expect(res.body.reason).toMatch(new RegExp(`${trials} trials; the limit is 100 \\(WEFT_MAX_EVAL_TRIALS\\)`));
    }
    expect(await jobsOf(p)).toEqual([]);
  });

  it('refuses rows × trials × (1 + scorers) past WEFT_MAX_JOB_MODEL_CALLS, and calls × scorers', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'slow-5000' });
    // 3 rows × 10 trials × (1 prediction + 1 judge) = 60 model requests > 50.
    const res = await send('/evaluations/evaluate_model', {
      project_id: p,
      evaluation_ref: await evaluation(p, f, [f.judgeRef], 10),
      model_ref: f.modelRef,
    });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(
      /60 model requests \(3 rows × 10 trials × \(1 prediction \+ 1 scorers\)\); the limit is 50 \(WEFT_MAX_JOB_MODEL_CALLS\)/,
    );
    const ids = Array.from({ length: 51 }, () => uuidv7());
    const score = await send('/weft/calls/score', { project_id: p, call_ids: ids, scorer_refs: [f.judgeRef] });
    expect(score.status).toBe(400);
    expect(score.body.reason).toMatch(/51 calls × 1 scorers.*\(WEFT_MAX_JOB_MODEL_CALLS\)/);
    expect(await jobsOf(p)).toEqual([]);
  });

  it('refuses more distinct scorers than WEFT_MAX_JOB_SCORERS before reading any of them', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const scorers = Array.from({ length: 5 }, (_, i) => `weave:///${p}/object/judge-${i}:${'A'.repeat(43)}`);
    const res = await send('/evaluations/evaluate_model', {
      project_id: p,
      evaluation_ref: await evaluation(p, f, scorers, 1),
      model_ref: f.modelRef,
    });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(/5 distinct scorers.*the limit is 4 \(WEFT_MAX_JOB_SCORERS\)/);
    const score = await send('/weft/calls/score', { project_id: p, call_ids: [uuidv7()], scorer_refs: scorers });
    expect(score.status).toBe(400);
    expect(score.body.reason).toMatch(/WEFT_MAX_JOB_SCORERS/);
  });

  it('runs a scorer named twice once, in an evaluation and in calls/score', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    // Six copies of one judge: one distinct scorer, within the limit of four.
    const res = await send('/evaluations/evaluate_model', {
      project_id: p,
      evaluation_ref: await evaluation(p, f, Array(6).fill(f.judgeRef), 1),
      model_ref: f.modelRef,
    });
    expect(res.status).toBe(200);
    const callId = res.body.call_id as string;
    const status = await waitFor(
      async () => (await send('/evaluations/status', { project_id: p, call_id: callId })).body.status,
      (s) => s.code === 'complete' || s.code === 'failed',
    );
    expect(status.code).toBe('complete');
    const calls = await collect(t.alice.client.callsStreamQuery({ project_id: p, filter: { trace_ids: [callId] } }));
    expect(calls.filter((c) => c.op_name.includes('/op/LLMAsAJudgeScorer.score:'))).toHaveLength(LLM_ROWS.length);

    const target = (
      await send('/completions/create', { project_id: p, inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'q' }] } })
    ).body.weave_call_id as string;
    const score = await send('/weft/calls/score', { project_id: p, call_ids: [target, target], scorer_refs: [f.judgeRef, f.judgeRef] });
    expect(score.status).toBe(200);
    const job = await waitFor(
      async () => (await t.alice.client.jobRead({ project_id: p, job_id: score.body.job_id })).job,
      (j) => j.status === 'succeeded' || j.status === 'failed',
    );
    expect(job).toMatchObject({ status: 'succeeded', progress_total: 1, result: { scored: 1, skipped: 0, failed: 0 } });
  });
});

describe('jobs already queued are held to the limits when they run', () => {
  it('an evaluation queued with 1,000,000 trials fails with the reason instead of running', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'slow-5000' });
    // Queued as an older server (with no limits) queued it: straight into the job queue.
    const evaluationRef = await evaluation(p, f, [f.judgeRef], 1_000_000);
    const callId = uuidv7();
    await t.server.jobs.enqueue({
      projectId: p,
      kind: 'evaluate_model',
      payload: { evaluation_ref: evaluationRef, model_ref: f.modelRef, call_id: callId },
      createdBy: 'alice',
    });
    const [job] = await waitFor(
      () => jobsOf(p),
      (js) => js[0]?.status === 'failed' || js[0]?.status === 'succeeded',
    );
    expect(job).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/1000000 trials; the limit is 100 \(WEFT_MAX_EVAL_TRIALS\)/),
    });
    // The evaluation's root says so too, and no prediction was started.
    const calls = await collect(t.alice.client.callsStreamQuery({ project_id: p, filter: { trace_ids: [callId] } }));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.exception).toMatch(/WEFT_MAX_EVAL_TRIALS/);
  });
});

describe('refs/read_batch is bounded', () => {
  it('reads a repeated ref once per batch and answers every position', async () => {
    const p = project();
    const { digest } = await t.alice.client.objCreate({ obj: { project_id: p, object_id: 'small', val: { n: 1 } } });
    const ref = `weave:///${p}/object/small:${digest}`;
    const res = await send('/refs/read_batch', { refs: [...Array(30).fill(ref), `${ref}/key/n`] });
    expect(res.status).toBe(200);
    expect(res.body.vals).toEqual([...Array(30).fill({ n: 1 }), 1]);
  });

  it('answers 413 naming WEFT_MAX_REF_BATCH_BYTES for 100 copies of a 1 MB ref, and stays up', async () => {
    const p = project();
    const { digest } = await t.alice.client.objCreate({ obj: { project_id: p, object_id: 'big', val: { blob: 'x'.repeat(1024 * 1024) } } });
    const ref = `weave:///${p}/object/big:${digest}`;
    const res = await send('/refs/read_batch', { refs: Array(100).fill(ref) });
    expect(res.status).toBe(413);
    expect(res.body.reason).toMatch(/more than 33554432 bytes; the limit is 33554432 \(WEFT_MAX_REF_BATCH_BYTES\)/);
    // Within the limit the same ref is answered at every position.
    const ok = await send('/refs/read_batch', { refs: Array(20).fill(ref) });
    expect(ok.status).toBe(200);
    expect(ok.body.vals).toHaveLength(20);
    expect((await t.fetch('/health')).status).toBe(200);
  });

  it('answers 400 naming WEFT_MAX_REF_BATCH past 1,000 refs', async () => {
    const p = project();
    const ref = `weave:///${p}/object/x:${'A'.repeat(43)}`;
    const res = await send('/refs/read_batch', { refs: Array(1001).fill(ref) });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(/Too many refs: 1001; the limit is 1000 \(WEFT_MAX_REF_BATCH\)/);
  });
});
