/**
 * /evaluations/evaluate_model, /evaluations/status and /calls/score over real HTTP: the jobs
 * run against the OpenAI stand-in and write the call tree and feedback the SDKs would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { LLM_ROWS, publishLlmEvaluation } from '../testing/llmFixture.js';
import { collect, projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { waitFor } from '../testing/waitFor.js';

let fake: FakeOpenAi;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await startTestServer({ env: { OPENAI_BASE_URL: fake.baseUrl, WEFT_OUTBOUND_ALLOW: '127.0.0.1', WEFT_JOB_STALE_MS: '2000' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/evalmodel');
const send = (path: string, json: unknown) => sendAsAlice(t)(path, { json });

describe('POST /evaluations/evaluate_model', () => {
  it('runs the evaluation as a job writing the SDK call tree, reported by /evaluations/status', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const res = await send('/evaluations/evaluate_model', { project_id: p, evaluation_ref: f.evaluationRef, model_ref: f.modelRef });
    expect(res.status).toBe(200);
    const callId = res.body.call_id as string;
    const status = await waitFor(
      async () => (await send('/evaluations/status', { project_id: p, call_id: callId })).body.status,
      (s) => s.code === 'complete' || s.code === 'failed',
    );
    expect(status.code).toBe('complete');
    // Judge answers {"score": words mod 6, ...}: the summary has the mean score.
    expect(status.output.helpfulness.score.mean).toEqual(expect.any(Number));

    const calls = await collect(t.alice.client.callsStreamQuery({ project_id: p, filter: { trace_ids: [callId] } }));
    const ops = (name: string) => calls.filter((c) => c.op_name.includes(`/op/${name}:`) || c.op_name === name);
    expect(ops('Evaluation.evaluate').map((c) => c.id)).toEqual([callId]);
    expect(ops('Evaluation.predict_and_score')).toHaveLength(LLM_ROWS.length);
    expect(ops('LLMStructuredCompletionModel.predict')).toHaveLength(LLM_ROWS.length * 2);
    expect(ops('LLMAsAJudgeScorer.score')).toHaveLength(LLM_ROWS.length);
    expect(ops('weave.completions_create')).toHaveLength(LLM_ROWS.length * 2);
    expect(ops('Evaluation.summarize')).toHaveLength(1);
    // Every call of the job is marked as Weft's own (domain/calls/weftMade.ts).
    expect(new Set(calls.map((c) => JSON.stringify((c.attributes as any).weft)))).toEqual(new Set(['{"source":"evaluate_model"}']));
    const row = ops('Evaluation.predict_and_score')[0]!;
    expect(row.output).toMatchObject({
      output: expect.stringMatching(/^Echo: Answer: /),
      scores: { helpfulness: { score: expect.any(Number) } },
    });
    expect((calls.find((c) => c.id === callId)!.summary as any).usage['gpt-4o-mini'].prompt_tokens).toBeGreaterThan(0);

    // The evaluation pages read it as a run.
    const runs = await collect(t.alice.client.evaluationRunList({ entity: 'alice-co', project: p.split('/')[1]! }));
    expect(runs.map((r) => r.evaluation_run_id)).toContain(callId);
    const jobs = (await sendAsAlice(t)(`/weft/jobs?project_id=${encodeURIComponent(p)}`)).body.jobs;
    expect(jobs[0]).toMatchObject({ kind: 'evaluate_model', status: 'succeeded', progress_done: 3, progress_total: 3 });
  });

  it('answers 400 when no provider serves the model', async () => {
    const p = project();
    const bare = await startTestServer();
    try {
      const g = await publishLlmEvaluation(bare.alice.client, p, { model: 'gpt-4o' });
      const res = await sendAsAlice(bare)('/evaluations/evaluate_model', {
        json: { project_id: p, evaluation_ref: g.evaluationRef, model_ref: g.modelRef },
      });
      expect(res.status).toBe(400);
      expect(res.body.reason).toMatch(/No model provider is configured/);
    } finally {
      await bare.close();
    }
  });

  it('fails the evaluation with the provider error when every prediction fails', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'fail-500', judgeModel: 'gpt-4o' });
    const res = await send('/evaluations/evaluate_model', { project_id: p, evaluation_ref: f.evaluationRef, model_ref: f.modelRef });
    const status = await waitFor(
      async () => (await send('/evaluations/status', { project_id: p, call_id: res.body.call_id })).body.status,
      (s) => s.code !== 'running' && s.code !== 'not_found',
    );
    expect(status.code).toBe('failed');
    expect(status.error).toMatch(/HTTP 500/);
  });
});

describe('POST /evaluations/rescore', () => {
  it("scores a finished run's predictions again as a new run linked to its source", async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const first = (await send('/evaluations/evaluate_model', { project_id: p, evaluation_ref: f.evaluationRef, model_ref: f.modelRef }))
      .body.call_id;
    await waitFor(
      async () => (await send('/evaluations/status', { project_id: p, call_id: first })).body.status.code,
      (c) => c === 'complete',
    );
    const predictsBefore = (await collect(t.alice.client.callsStreamQuery({ project_id: p }))).filter((c) =>
      c.op_name.includes('/op/LLMStructuredCompletionModel.predict:'),
    ).length;
    const res = await send('/evaluations/rescore', { project_id: p, source_evaluation_run_id: first, scorer_refs: [f.judgeRef] });
    expect(res.status).toBe(200);
    expect(res.body.evaluation_run_id).toBe(res.body.call_id);
    const status = await waitFor(
      async () => (await send('/evaluations/status', { project_id: p, call_id: res.body.call_id })).body.status,
      (s) => s.code === 'complete' || s.code === 'failed',
    );
    expect(status.code).toBe('complete');
    expect(status.output.helpfulness.score.mean).toEqual(expect.any(Number));
    const run = await t.alice.client.evaluationRunRead({
      entity: 'alice-co',
      project: p.split('/')[1]!,
      evaluation_run_id: res.body.call_id,
    });
    expect(run).toMatchObject({ source_evaluation_run_id: first, evaluation: f.evaluationRef, model: f.modelRef, status: 'completed' });
    // Only the judges' models ran again: 3 judge predictions, no new model predictions of the rows.
    const predictsAfter = (await collect(t.alice.client.callsStreamQuery({ project_id: p }))).filter((c) =>
      c.op_name.includes('/op/LLMStructuredCompletionModel.predict:'),
    ).length;
    expect(predictsAfter - predictsBefore).toBe(3);
    expect(
      (await send('/evaluations/rescore', { project_id: p, source_evaluation_run_id: 'nope', scorer_refs: [f.judgeRef] })).status,
    ).toBe(404);
  });
});

describe('POST /calls/score', () => {
  it('scores calls with an LLM judge and stores runnable feedback on each', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const done = await send('/completions/create', {
      project_id: p,
      inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'q' }] },
    });
    const target = done.body.weave_call_id as string;
    const res = await send('/calls/score', { project_id: p, call_ids: [target], scorer_refs: [f.judgeRef] });
    expect(res).toEqual({ status: 200, body: {} });
    const feedback = await waitFor(
      async () =>
        (
          await t.alice.client.feedbackQuery({
            project_id: p,
            query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.runnable.helpfulness' }] } },
          })
        ).result,
      (rows) => rows.length > 0,
    );
    expect(feedback[0]).toMatchObject({
      weave_ref: `weave:///${p}/call/${target}`,
      runnable_ref: f.judgeRef,
      payload: { output: { score: expect.any(Number) } },
    });
    const scoreCallId = (feedback[0]!.call_ref as string).split('/').pop()!;
    const { call } = await t.alice.client.callRead({ project_id: p, id: scoreCallId });
    expect(call!.op_name).toContain('/op/LLMAsAJudgeScorer.score:');
    expect((call!.attributes as any).weft).toEqual({ source: 'scorer' });
    expect(call!.inputs.output).toMatchObject({ choices: expect.any(Array) });
  });

  it('POST /weft/calls/score answers the job, which reports progress until every pair is scored', async () => {
    const p = project();
    await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const ids: string[] = [];
    for (const q of ['a', 'b c']) {
      const done = await send('/completions/create', {
        project_id: p,
        inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] },
      });
      ids.push(done.body.weave_call_id as string);
    }
    // A judge whose prompt names every input at once with {inputs}.
    const judgeModelRef = `weave:///${p}/object/judge-model:${(await t.alice.client.objRead({ project_id: p, object_id: 'judge-model', digest: 'latest' })).obj.digest}`;
    const { digest } = await t.alice.client.objCreate({
      obj: {
        project_id: p,
        object_id: 'inputs-judge',
        val: {
          _type: 'LLMAsAJudgeScorer',
          _class_name: 'LLMAsAJudgeScorer',
          _bases: ['Scorer', 'Object', 'BaseModel'],
          name: 'inputs-judge',
          model: judgeModelRef,
          scoring_prompt: 'Given {inputs} rate {output}',
        },
      },
    });
    const judgeRef = `weave:///${p}/object/inputs-judge:${digest}`;
    const res = await send('/weft/calls/score', { project_id: p, call_ids: ids, scorer_refs: [judgeRef] });
    expect(res.status).toBe(200);
    const jobId = res.body.job_id as string;
    const job = await waitFor(
      async () => (await t.alice.client.jobRead({ project_id: p, job_id: jobId })).job,
      (j) => j.status === 'succeeded',
    );
    expect(job).toMatchObject({ kind: 'calls_score', progress_done: 2, progress_total: 2, result: { scored: 2, skipped: 0, failed: 0 } });
    const prompts = fake.requests.map((r) => JSON.stringify(r.body?.messages ?? ''));
    expect(prompts.some((m) => m.includes('Given {\\"model\\":\\"gpt-4o-mini\\"'))).toBe(true);
    const bad = await send('/weft/calls/score', { project_id: p, call_ids: ids, scorer_refs: ['not a ref'] });
    expect(bad.status).toBe(400);
  });
});

describe('POST /weft/judges/try', () => {
  it('answers a saved or unsaved judge on one call at once, storing no feedback', async () => {
    const p = project();
    const f = await publishLlmEvaluation(t.alice.client, p, { model: 'gpt-4o-mini' });
    const done = await send('/completions/create', {
      project_id: p,
      inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'what is 2+2' }] },
    });
    const target = done.body.weave_call_id as string;

    const saved = await send('/weft/judges/try', { project_id: p, call_id: target, scorer_ref: f.judgeRef });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ output: { score: expect.any(Number) }, error: null, scorer_call_id: expect.any(String) });
    const { call } = await t.alice.client.callRead({ project_id: p, id: saved.body.scorer_call_id as string });
    expect(call!.inputs.self).toBe(f.judgeRef);

    // A judge being edited: its value, with the prompt not saved anywhere yet.
    const modelRef = `weave:///${p}/object/judge-model:${(await t.alice.client.objRead({ project_id: p, object_id: 'judge-model', digest: 'latest' })).obj.digest}`;
    const draft = {
      _type: 'LLMAsAJudgeScorer',
      _class_name: 'LLMAsAJudgeScorer',
      _bases: ['Scorer', 'Object', 'BaseModel'],
      name: 'draft',
      model: modelRef,
      scoring_prompt: 'Draft prompt: rate {output}',
    };
    const unsaved = await send('/weft/judges/try', { project_id: p, call_id: target, scorer: draft });
    expect(unsaved.status).toBe(200);
    expect(fake.requests.some((r) => JSON.stringify(r.body?.messages ?? '').includes('Draft prompt: rate'))).toBe(true);

    const feedback = await t.alice.client.feedbackQuery({ project_id: p });
    expect(feedback.result).toEqual([]);

    // What to fix, never a 5xx.
    expect((await send('/weft/judges/try', { project_id: p, call_id: target })).status).toBe(422);
    expect((await send('/weft/judges/try', { project_id: p, call_id: 'no-such-call', scorer_ref: f.judgeRef })).status).toBe(404);
    const notJudge = await send('/weft/judges/try', {
      project_id: p,
      call_id: target,
      scorer: { ...draft, _class_name: 'Model', _bases: [] },
    });
    expect(notJudge.status).toBe(400);
    expect(notJudge.body.reason).toContain('not an LLMAsAJudgeScorer');
  });
});
