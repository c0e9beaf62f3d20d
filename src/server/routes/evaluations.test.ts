/**
 * Evaluation orchestration over HTTP: /evaluations/status through a run's life (not_found,
 * running with rows done of total, complete, failed; 400 for other calls), and the two
 * endpoints Weft cannot serve answering 400 with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvaluationStatusRes } from '../../contract/evaluations.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let f: EvaluationFixture;
beforeAll(async () => {
  t = await startTestServer();
  f = await publishEvaluation(t.alice.client, 'alice-co', 'status');
});
afterAll(async () => {
  await t.close();
});

const status = async (call_id: string) =>
  EvaluationStatusRes.parse(await t.alice.client.evaluationStatus({ project_id: f.projectId, call_id })).status;
const post = async (path: string, json: unknown) => {
  const res = await t.fetch(path, { json });
  return { status: res.status, body: (await res.json()) as { reason?: string } };
};

describe('POST /evaluations/status', () => {
  it('follows a run: running with finished rows of the dataset rows, then complete with its output', async () => {
    const run = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
    expect(await status(run)).toEqual({ code: 'running', completed_rows: 0, total_rows: 3 });
    const done = (
      await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs: { i: 0 }, output: 1, evaluation_run_id: run })
    ).prediction_id;
    await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs: { i: 1 }, output: 2, evaluation_run_id: run });
    await t.alice.client.predictionFinish({ ...f.path, prediction_id: done });
    expect(await status(run)).toEqual({ code: 'running', completed_rows: 1, total_rows: 3 });
    await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id: run });
    expect(await status(run)).toEqual({ code: 'complete', output: { model_latency: { mean: expect.any(Number) }, output: { mean: 1.5 } } });
  });

  it('counts rows x trials, and never fewer rows than are done', async () => {
    const trials = await t.alice.client.evaluationCreate({ ...f.path, name: 'twice', dataset: f.dataset, trials: 2 });
    const run = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: trials.evaluation_ref, model: f.models.a }))
      .evaluation_run_id;
    expect(await status(run)).toMatchObject({ total_rows: 6 });
    const tiny = await t.alice.client.datasetCreate({ ...f.path, name: 'tiny', rows: [{ q: 1 }] });
    const tinyEval = await t.alice.client.evaluationCreate({
      ...f.path,
      name: 'tiny-eval',
      dataset: `weave:///${f.projectId}/object/tiny:${tiny.digest}`,
    });
    const over = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: tinyEval.evaluation_ref, model: f.models.a }))
      .evaluation_run_id;
    for (const i of [0, 1]) {
      const { prediction_id } = await t.alice.client.predictionCreate({
        ...f.path,
        model: f.models.a,
        inputs: { i },
        output: i,
        evaluation_run_id: over,
      });
      await t.alice.client.predictionFinish({ ...f.path, prediction_id });
    }
    expect(await status(over)).toEqual({ code: 'running', completed_rows: 2, total_rows: 2 });
  });

  it('answers not_found for an unknown call and failed (with the exception) for one that raised', async () => {
    expect(await status('nope')).toEqual({ code: 'not_found' });
    const at = new Date().toISOString();
    await t.alice.client.callUpsertBatch({
      batch: [
        {
          mode: 'start',
          req: {
            start: {
              project_id: f.projectId,
              id: 'boom',
              op_name: `weave:///${f.projectId}/op/Evaluation.evaluate:${'E'.repeat(43)}`,
              started_at: at,
              attributes: {},
              inputs: {},
            },
          },
        },
        { mode: 'end', req: { end: { project_id: f.projectId, id: 'boom', ended_at: at, exception: 'model crashed', summary: {} } } },
      ],
    });
    expect(await status('boom')).toEqual({ code: 'failed', error: 'model crashed' });
  });

  it('answers 400 for a call that is not an evaluation, 422 without call_id, 403 in another entity', async () => {
    const { prediction_id } = await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs: {}, output: 1 });
    const res = await post('/evaluations/status', { project_id: f.projectId, call_id: prediction_id });
    expect(res.status).toBe(400);
    expect(res.body.reason).toContain('not an evaluation');
    expect((await post('/evaluations/status', { project_id: f.projectId })).status).toBe(422);
    expect((await post('/evaluations/status', { project_id: 'bob-co/status', call_id: 'x' })).status).toBe(403);
  });
});

describe('POST /evaluations/evaluate_model', () => {
  it('refuses (400) a model that is not an LLMStructuredCompletionModel, after 422 and 403 checks', async () => {
    const res = await post('/evaluations/evaluate_model', { project_id: f.projectId, evaluation_ref: f.evaluation, model_ref: f.models.a });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(/not an LLMAsAJudgeScorer|not an LLMStructuredCompletionModel/);
    expect((await post('/evaluations/evaluate_model', { project_id: f.projectId, evaluation_ref: f.evaluation })).status).toBe(422);
    expect((await post('/evaluations/evaluate_model', { project_id: 'bob-co/x', evaluation_ref: 'a', model_ref: 'b' })).status).toBe(403);
  });
});

describe('POST /calls/score', () => {
  it('refuses (400) a scorer that is not an LLM judge, after 422 and 403 checks', async () => {
    const res = await post('/calls/score', { project_id: f.projectId, call_ids: ['c'], scorer_refs: [f.scorers.exact] });
    expect(res.status).toBe(400);
    expect(res.body.reason).toMatch(/not an LLMAsAJudgeScorer/);
    expect((await post('/calls/score', { project_id: f.projectId, call_ids: [], scorer_refs: ['x'] })).status).toBe(422);
    expect((await post('/calls/score', { project_id: 'bob-co/x', call_ids: ['c'], scorer_refs: ['x'] })).status).toBe(403);
  });
});
