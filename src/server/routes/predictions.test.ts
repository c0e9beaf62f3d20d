/**
 * Predictions and scores over HTTP: their calls (own traces or under a run's
 * predict_and_score rows), the runnable feedback a score writes, lists, reads, deletes and
 * finishing a prediction; 400 / 404 / 422 / 403 answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PredictionRead } from '../../contract/predictions.js';
import { ScoreRead } from '../../contract/scores.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { collect, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();
let f: EvaluationFixture;
let base: string;
let runId: string;
beforeAll(async () => {
  f = await publishEvaluation(t.alice.client, 'alice-co', 'preds');
  base = '/v2/alice-co/preds';
  runId = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
});

const send = sendAsAlice(t);
const call = async (id: string) => (await t.alice.client.callRead({ project_id: f.projectId, id })).call!;
const predict = async (inputs: Record<string, unknown>, output: unknown, evaluation_run_id?: string) =>
  (await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs, output, evaluation_run_id })).prediction_id;
const feedbackOn = async (callId: string) =>
  (
    await t.alice.client.feedbackQuery({
      project_id: f.projectId,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${f.projectId}/call/${callId}` }] } },
    })
  ).result;

describe('POST /v2/:entity/:project/predictions', () => {
  it('records a standalone prediction as an ended <model>.predict call of its own trace', async () => {
    const id = await predict({ question: 'hi' }, { answer: 'hello' });
    const c = await call(id);
    expect(c.op_name).toMatch(/\/op\/model-a\.predict:[A-Za-z0-9]{43}$/);
    expect(c).toMatchObject({
      trace_id: id,
      parent_id: null,
      inputs: { self: f.models.a, inputs: { question: 'hi' } },
      output: { answer: 'hello' },
    });
    expect(c.ended_at).not.toBeNull();
    expect(c.attributes).toEqual({ weave: { prediction: 'true', model: f.models.a } });
  });

  it('in a run, opens the row predict_and_score call under the run and nests the prediction in it', async () => {
    const id = await predict({ question: 'q' }, 'a', runId);
    const c = await call(id);
    const row = await call(c.parent_id!);
    expect(row.op_name).toMatch(/\/op\/Evaluation\.predict_and_score:/);
    expect(row).toMatchObject({
      parent_id: runId,
      trace_id: runId,
      ended_at: null,
      inputs: { self: f.evaluation, model: f.models.a, example: { question: 'q' } },
    });
    expect(row.attributes).toEqual({ weave: { predict_call_id: id } });
    expect(c).toMatchObject({
      trace_id: runId,
      attributes: { weave: { prediction: 'true', model: f.models.a, evaluation_run_id: runId } },
    });
  });

  it('keeps genai span refs on the prediction and its row', async () => {
    const spans = [{ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) }];
    const { prediction_id } = await t.alice.client.predictionCreate({
      ...f.path,
      model: f.models.a,
      inputs: {},
      output: null,
      evaluation_run_id: runId,
      genai_span_ref: spans,
    });
    const c = await call(prediction_id);
    expect(c.attributes).toMatchObject({ weave: { genai_span_ref: spans } });
    expect((await call(c.parent_id!)).attributes).toMatchObject({ weave: { genai_span_ref: spans } });
  });

  it('keeps only the named fields of a span ref, as zod does, whichever parse read the body', async () => {
    const span = { trace_id: 'c'.repeat(32), span_id: 'd'.repeat(16) };
    const res = await send(`${base}/predictions`, {
      json: { model: f.models.a, inputs: {}, output: null, genai_span_ref: [{ ...span, unknown_newer_field: 'x' }] },
    });
    expect(res.status).toBe(200);
    const { prediction_id } = res.body as { prediction_id: string };
    expect(((await call(prediction_id)).attributes.weave as { genai_span_ref: unknown }).genai_span_ref).toEqual([span]);
  });

  it('answers 404 for an unknown run or model, 422 without output, 403 in another entity', async () => {
    expect(
      (await send(`${base}/predictions`, { json: { model: f.models.a, inputs: {}, output: 1, evaluation_run_id: 'nope' } })).status,
    ).toBe(404);
    expect(
      (await send(`${base}/predictions`, { json: { model: `weave:///${f.projectId}/object/x:${'A'.repeat(43)}`, inputs: {}, output: 1 } }))
        .status,
    ).toBe(404);
    expect((await send(`${base}/predictions`, { json: { model: f.models.a, inputs: {} } })).status).toBe(422);
    expect((await send('/v2/bob-co/preds/predictions', { json: { model: f.models.a, inputs: {}, output: 1 } })).status).toBe(403);
  });

  it('answers 404 with deleted_at for a deleted model version, and for a deleted scorer', async () => {
    const path = { entity: 'alice-co', project: 'preds-deleted' };
    const g = await publishEvaluation(t.alice.client, path.entity, path.project);
    const { prediction_id } = await t.alice.client.predictionCreate({ ...path, model: g.models.b, inputs: {}, output: 1 });
    const digestOf = (ref: string) => ref.slice(ref.lastIndexOf(':') + 1);
    await t.alice.client.objDelete({ project_id: g.projectId, object_id: 'model-b', digests: [digestOf(g.models.b)] });
    await t.alice.client.objDelete({ project_id: g.projectId, object_id: 'exact', digests: [digestOf(g.scorers.exact)] });
    const gone = await send(`/v2/${g.projectId}/predictions`, { json: { model: g.models.b, inputs: {}, output: 1 } });
    expect(gone.status).toBe(404);
    expect(gone.body.reason).toMatch(/^model-b:v0 was deleted at /);
    expect(gone.body.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const score = await send(`/v2/${g.projectId}/scores`, { json: { prediction_id, scorer: g.scorers.exact, value: 1 } });
    expect(score.status).toBe(404);
    expect(score.body.reason).toMatch(/^exact:v0 was deleted at /);
  });
});

describe('GET /v2/:entity/:project/predictions', () => {
  it('lists predictions, or those of one run, paged', async () => {
    const path = { entity: 'alice-co', project: 'preds-list' };
    const g = await publishEvaluation(t.alice.client, path.entity, path.project);
    const run = (await t.alice.client.evaluationRunCreate({ ...path, evaluation: g.evaluation, model: g.models.b })).evaluation_run_id;
    const ids = [];
    for (const r of [null, run, run])
      ids.push(
        (
          await t.alice.client.predictionCreate({
            ...path,
            model: g.models.b,
            inputs: { n: ids.length },
            output: ids.length,
            evaluation_run_id: r,
          })
        ).prediction_id,
      );
    const list = async (req: Record<string, unknown>) =>
      (await collect(t.alice.client.predictionList({ ...path, ...req }))).map((p) => PredictionRead.parse(p));
    expect((await list({})).map((p) => p.prediction_id)).toEqual(ids);
    expect((await list({ evaluation_run_id: run })).map((p) => [p.prediction_id, p.evaluation_run_id, p.inputs])).toEqual([
      [ids[1], run, { n: 1 }],
      [ids[2], run, { n: 2 }],
    ]);
    expect((await list({ limit: 1, offset: 2 })).map((p) => p.prediction_id)).toEqual([ids[2]]);
    expect((await send('/v2/bob-co/preds/predictions')).status).toBe(403);
    expect((await send('/v2/alice-co/preds-list/predictions?offset=x')).status).toBe(422);
  });
});

describe('GET /v2/:entity/:project/predictions/:prediction_id', () => {
  it('reads a prediction; 404 for unknown ids and calls that are not predictions', async () => {
    const id = await predict({ x: 1 }, [1, 2], runId);
    expect(await t.alice.client.predictionRead({ ...f.path, prediction_id: id })).toEqual({
      prediction_id: id,
      model: f.models.a,
      inputs: { x: 1 },
      output: [1, 2],
      evaluation_run_id: runId,
      wb_user_id: 'alice',
    });
    expect((await send(`${base}/predictions/nope`)).status).toBe(404);
    expect((await send(`${base}/predictions/${runId}`)).status).toBe(404);
    expect((await send(`/v2/bob-co/preds/predictions/${id}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/predictions', () => {
  it('deletes predictions (repeated prediction_ids); 422 without ids', async () => {
    const a = await predict({}, 1);
    const b = await predict({}, 2);
    expect(await send(`${base}/predictions?prediction_ids=${a}&prediction_ids=${b}&prediction_ids=${runId}`, { method: 'DELETE' })).toEqual(
      { status: 200, body: { num_deleted: 2 } },
    );
    expect(await call(a)).toBeNull();
    expect(await call(runId)).not.toBeNull();
    expect((await send(`${base}/predictions`, { method: 'DELETE' })).status).toBe(422);
    expect((await send(`/v2/bob-co/preds/predictions?prediction_ids=${b}`, { method: 'DELETE' })).status).toBe(403);
  });
});

describe('POST /v2/:entity/:project/predictions/:prediction_id/finish', () => {
  it('ends the row with the output, the scores by scorer name and the model latency', async () => {
    const id = await predict({ q: 'sky' }, 'blue', runId);
    await t.alice.client.scoreCreate({ ...f.path, prediction_id: id, scorer: f.scorers.exact, value: true, evaluation_run_id: runId });
    await t.alice.client.scoreCreate({
      ...f.path,
      prediction_id: id,
      scorer: f.scorers.closeness,
      value: { score: 0.9, passed: true },
      evaluation_run_id: runId,
    });
    expect(await t.alice.client.predictionFinish({ ...f.path, prediction_id: id })).toEqual({ success: true });
    const prediction = await call(id);
    const row = await call(prediction.parent_id!);
    expect(row.output).toEqual({
      output: 'blue',
      scores: { exact: true, closeness: { score: 0.9, passed: true } },
      model_latency: { mean: 0 },
    });
    expect(prediction.output).toBe('blue');
  });

  it("takes the final output the Python SDK's EvaluationLoggerV2 sends, keeping the prediction's timing; null is an output too", async () => {
    const id = await predict({ q: 'sea' }, 'draft', runId);
    const before = await call(id);
    await t.alice.client.scoreCreate({ ...f.path, prediction_id: id, scorer: f.scorers.exact, value: false, evaluation_run_id: runId });
    // As the SDK sends it: the path's ids again in the body, and wb_user_id, beside the output.
    const res = await send(`${base}/predictions/${id}/finish`, {
      json: { project_id: f.projectId, prediction_id: id, output: { answer: 'final' }, wb_user_id: null },
    });
    expect(res.status).toBe(200);
    const prediction = await call(id);
    expect(prediction.output).toEqual({ answer: 'final' });
    expect(prediction.ended_at).toBe(before.ended_at);
    expect((await call(prediction.parent_id!)).output).toEqual({
      output: { answer: 'final' },
      scores: { exact: false },
      model_latency: { mean: 0 },
    });
    expect((await t.alice.client.predictionRead({ ...f.path, prediction_id: id })).output).toEqual({ answer: 'final' });

    await t.alice.client.predictionFinish({ ...f.path, prediction_id: id, output: null });
    expect((await call(id)).output).toBeNull();
    expect((await call(prediction.parent_id!)).output).toMatchObject({ output: null });
    // Without an output the stored one stays.
    await t.alice.client.predictionFinish({ ...f.path, prediction_id: id });
    expect((await call(id)).output).toBeNull();
  });

  it('answers 404 for an unknown prediction, 403 in another entity', async () => {
    expect((await send(`${base}/predictions/nope/finish`, { json: {} })).status).toBe(404);
    expect((await send('/v2/bob-co/preds/predictions/nope/finish', { json: {} })).status).toBe(403);
  });
});

describe('POST /v2/:entity/:project/scores', () => {
  it('records a <scorer>.score call under the row and runnable feedback on the prediction, together', async () => {
    const pid = await predict({ q: 1 }, 'out', runId);
    const { score_id } = await t.alice.client.scoreCreate({
      ...f.path,
      prediction_id: pid,
      scorer: f.scorers.exact,
      value: false,
      evaluation_run_id: runId,
    });
    const score = await call(score_id);
    const prediction = await call(pid);
    expect(score.op_name).toMatch(/\/op\/exact\.score:/);
    expect(score).toMatchObject({
      parent_id: prediction.parent_id,
      trace_id: runId,
      output: false,
      inputs: { self: f.scorers.exact, inputs: { q: 1 }, output: 'out' },
    });
    expect(score.attributes).toEqual({ weave: { score: 'true', prediction_id: pid, scorer: f.scorers.exact, evaluation_run_id: runId } });
    const [fb] = await feedbackOn(pid);
    expect(fb).toMatchObject({
      feedback_type: 'wandb.runnable.exact',
      payload: { output: false },
      runnable_ref: f.scorers.exact,
      call_ref: `weave:///${f.projectId}/call/${score_id}`,
      wb_user_id: 'alice',
    });
  });

  it('scores a standalone prediction in a trace of its own', async () => {
    const pid = await predict({}, 1);
    const { score_id } = await t.alice.client.scoreCreate({ ...f.path, prediction_id: pid, scorer: f.scorers.closeness, value: 0.5 });
    expect(await call(score_id)).toMatchObject({ trace_id: score_id, parent_id: null });
  });

  it('answers 400 for an op as scorer, 404 for an unknown prediction, 422 without value, 403 elsewhere', async () => {
    const pid = await predict({}, 1);
    const op = (await t.alice.client.opCreate({ ...f.path, name: 'judge' })).digest;
    expect(
      (await send(`${base}/scores`, { json: { prediction_id: pid, scorer: `weave:///${f.projectId}/op/judge:${op}`, value: 1 } })).status,
    ).toBe(400);
    expect((await send(`${base}/scores`, { json: { prediction_id: 'nope', scorer: f.scorers.exact, value: 1 } })).status).toBe(404);
    expect((await send(`${base}/scores`, { json: { prediction_id: pid, scorer: f.scorers.exact } })).status).toBe(422);
    expect((await send('/v2/bob-co/preds/scores', { json: { prediction_id: pid, scorer: f.scorers.exact, value: 1 } })).status).toBe(403);
    expect(await feedbackOn(pid)).toEqual([]);
  });

  it('answers 404 for an unknown run, and for a prediction whose run was deleted', async () => {
    const pid = await predict({}, 1, runId);
    const score = (prediction_id: string, evaluation_run_id: string) =>
      send(`${base}/scores`, { json: { prediction_id, scorer: f.scorers.exact, value: 1, evaluation_run_id } });
    expect((await score(pid, 'nope')).status).toBe(404);
    const run = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
    const inDeleted = await predict({}, 1, run);
    await t.alice.client.evaluationRunDelete({ ...f.path, evaluation_run_ids: [run] });
    const refused = await score(inDeleted, run);
    expect(refused.status).toBe(404);
    expect((refused.body as { reason: string }).reason).toMatch(/^Prediction .* not found$/);
    expect(await feedbackOn(pid)).toEqual([]);
    expect(await feedbackOn(inDeleted)).toEqual([]);
  });
});

describe('GET /v2/:entity/:project/scores', () => {
  it('lists scores of a run', async () => {
    const path = { entity: 'alice-co', project: 'scores-list' };
    const g = await publishEvaluation(t.alice.client, path.entity, path.project);
    const run = (await t.alice.client.evaluationRunCreate({ ...path, evaluation: g.evaluation, model: g.models.a })).evaluation_run_id;
    const pid = (await t.alice.client.predictionCreate({ ...path, model: g.models.a, inputs: {}, output: 1, evaluation_run_id: run }))
      .prediction_id;
    await t.alice.client.scoreCreate({ ...path, prediction_id: pid, scorer: g.scorers.exact, value: true, evaluation_run_id: run });
    await t.alice.client.scoreCreate({ ...path, prediction_id: pid, scorer: g.scorers.closeness, value: 0.1 });
    const inRun = (await collect(t.alice.client.scoreList({ ...path, evaluation_run_id: run }))).map((s) => ScoreRead.parse(s));
    expect(inRun.map((s) => [s.scorer, s.value, s.evaluation_run_id])).toEqual([[g.scorers.exact, true, run]]);
    expect(await collect(t.alice.client.scoreList({ ...path, limit: 5 }))).toHaveLength(2);
    expect((await send('/v2/alice-co/scores-list/scores?limit=x')).status).toBe(422);
    expect((await send('/v2/bob-co/scores-list/scores')).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/scores/:score_id', () => {
  it('reads a score (a null value reads as 0.0); 404 for unknown ids and non-score calls', async () => {
    const pid = await predict({}, 1);
    const { score_id } = await t.alice.client.scoreCreate({ ...f.path, prediction_id: pid, scorer: f.scorers.exact, value: null });
    expect(await t.alice.client.scoreRead({ ...f.path, score_id })).toEqual({
      score_id,
      scorer: f.scorers.exact,
      value: 0,
      evaluation_run_id: null,
      wb_user_id: 'alice',
    });
    expect((await send(`${base}/scores/nope`)).status).toBe(404);
    expect((await send(`${base}/scores/${pid}`)).status).toBe(404);
    expect((await send(`/v2/bob-co/preds/scores/${score_id}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/scores', () => {
  it('deletes score calls and the feedback they wrote', async () => {
    const pid = await predict({}, 1);
    const { score_id } = await t.alice.client.scoreCreate({ ...f.path, prediction_id: pid, scorer: f.scorers.exact, value: true });
    expect(await t.alice.client.scoreDelete({ ...f.path, score_ids: [score_id, pid] })).toEqual({ num_deleted: 1 });
    expect(await call(score_id)).toBeNull();
    expect(await call(pid)).not.toBeNull();
    expect(await feedbackOn(pid)).toEqual([]);
    expect((await send(`/v2/bob-co/preds/scores?score_ids=${score_id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await send(`${base}/scores`, { method: 'DELETE' })).status).toBe(422);
  });
});
