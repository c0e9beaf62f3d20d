/**
 * Evaluation runs over HTTP: stored as `Evaluation.evaluate` calls with the reference's
 * attributes and inputs, listed with filters, read, deleted with their calls, finished into a
 * summary; 400 / 404 / 409 / 422 / 403 answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import { EvaluationRunRead } from '../../contract/evaluationRuns.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { collect, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();
let f: EvaluationFixture;
let base: string;
beforeAll(async () => {
  f = await publishEvaluation(t.alice.client, 'alice-co', 'runs');
  base = '/v2/alice-co/runs';
});

const send = sendAsAlice(t);
const call = async (id: string) => (await t.alice.client.callRead({ project_id: f.projectId, id })).call!;
const children = async (parent: string) => {
  const out: CallSchema[] = [];
  for await (const c of t.alice.client.callsStreamQuery({ project_id: f.projectId, filter: { parent_ids: [parent] } })) out.push(c);
  return out;
};
const newRun = async (model = f.models.a) =>
  (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model })).evaluation_run_id;

describe('POST /v2/:entity/:project/evaluation_runs', () => {
  it('starts an Evaluation.evaluate call: own trace, weave attributes, inputs self and model', async () => {
    const id = await newRun();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const run = await call(id);
    expect(run).toMatchObject({
      trace_id: id,
      parent_id: null,
      ended_at: null,
      wb_user_id: 'alice',
      inputs: { self: f.evaluation, model: f.models.a },
    });
    expect(run.op_name).toMatch(/^weave:\/\/\/alice-co\/runs\/op\/Evaluation\.evaluate:[A-Za-z0-9]{43}$/);
    expect(run.attributes).toEqual({ weave: { evaluation_run: 'true', evaluation: f.evaluation, model: f.models.a } });
  });

  it('keeps the run it rescores; 404 for an unknown evaluation, model or source run', async () => {
    const source = await newRun();
    const id = (
      await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.b, source_evaluation_run_id: source })
    ).evaluation_run_id;
    expect((await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id: id })).source_evaluation_run_id).toBe(source);
    const missing = `weave:///${f.projectId}/object/nope:${'A'.repeat(43)}`;
    expect((await send(`${base}/evaluation_runs`, { json: { evaluation: missing, model: f.models.a } })).status).toBe(404);
    expect((await send(`${base}/evaluation_runs`, { json: { evaluation: f.evaluation, model: missing } })).status).toBe(404);
    expect(
      (await send(`${base}/evaluation_runs`, { json: { evaluation: f.evaluation, model: f.models.a, source_evaluation_run_id: 'nope' } }))
        .status,
    ).toBe(404);
  });

  it('keeps refs that are not weave:/// ones verbatim, as the reference does; its eval_results tests rely on it', async () => {
    // As tests/trace/test_trace_server_v2_api.py (eval_results): a run, a prediction and a score
    // on eval://, model:// labels, then read back through runs, predictions and eval_results.
    const created = await send(`${base}/evaluation_runs`, { json: { evaluation: 'eval://basic', model: 'model://basic' } });
    expect(created.status).toBe(200);
    const runId = created.body.evaluation_run_id as string;
    expect(await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id: runId })).toMatchObject({
      evaluation: 'eval://basic',
      model: 'model://basic',
    });
    const listed = await collect(t.alice.client.evaluationRunList({ ...f.path, evaluations: ['eval://basic'], models: ['model://basic'] }));
    expect(listed.map((r) => r.evaluation_run_id)).toEqual([runId]);
    const prediction = await send(`${base}/predictions`, {
      json: { model: 'model://basic', inputs: { x: 1 }, output: 'result', evaluation_run_id: runId },
    });
    expect(prediction.status).toBe(200);
    const { prediction_id } = prediction.body as { prediction_id: string };
    expect((await call(prediction_id)).op_name).toMatch(/\/op\/Model\.predict:/);
    await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.closeness, value: 0.9, evaluation_run_id: runId });
    await t.alice.client.predictionFinish({ ...f.path, prediction_id });
    const results = await t.alice.client.evalResultsQuery({ ...f.path, evaluation_call_ids: [runId] });
    expect(results.total_rows).toBe(1);
    expect(results.rows[0]!.evaluations[0]!.trials[0]!.scores).toEqual({ closeness: 0.9 });
  });

  it('answers 400 for a malformed weave:/// ref, 422 without a model, 403 in another entity', async () => {
    const malformed = `weave:///${f.projectId}/object/no-digest`;
    expect((await send(`${base}/evaluation_runs`, { json: { evaluation: malformed, model: f.models.a } })).status).toBe(400);
    expect((await send(`${base}/evaluation_runs`, { json: { evaluation: f.evaluation, model: malformed } })).status).toBe(400);
    expect((await send(`${base}/evaluation_runs`, { json: { evaluation: f.evaluation } })).status).toBe(422);
    expect((await send('/v2/bob-co/runs/evaluation_runs', { json: { evaluation: f.evaluation, model: f.models.a } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/evaluation_runs', () => {
  it('streams runs in start order, filtered by evaluations, models and ids (ANDed), paged', async () => {
    const path = { entity: 'alice-co', project: 'runs-list' };
    const g = await publishEvaluation(t.alice.client, path.entity, path.project);
    const ids = [];
    for (const model of [g.models.a, g.models.b, g.models.a])
      ids.push((await t.alice.client.evaluationRunCreate({ ...path, evaluation: g.evaluation, model })).evaluation_run_id);
    const list = async (req: Record<string, unknown>) =>
      (await collect(t.alice.client.evaluationRunList({ ...path, ...req }))).map((r) => EvaluationRunRead.parse(r).evaluation_run_id);
    expect(await list({})).toEqual(ids);
    expect(await list({ models: [g.models.a] })).toEqual([ids[0], ids[2]]);
    expect(await list({ models: [g.models.a], evaluation_run_ids: [ids[1]!, ids[2]!] })).toEqual([ids[2]]);
    expect(await list({ evaluations: [f.evaluation] })).toEqual([]);
    expect(await list({ limit: 1, offset: 1 })).toEqual([ids[1]]);
    const raw = await t.fetch(`/v2/alice-co/runs-list/evaluation_runs?evaluation_run_ids=${ids[0]}&evaluation_run_ids=${ids[1]}`);
    expect((await raw.text()).trim().split('\n')).toHaveLength(2);
    expect((await send('/v2/bob-co/x/evaluation_runs')).status).toBe(403);
    expect((await send('/v2/alice-co/runs-list/evaluation_runs?limit=x')).status).toBe(422);
  });
});

describe('GET /v2/:entity/:project/evaluation_runs/:evaluation_run_id', () => {
  it('reads a running run; 404 for unknown ids and calls that are not runs', async () => {
    const id = await newRun();
    const run = EvaluationRunRead.parse(await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id: id }));
    expect(run).toMatchObject({
      evaluation_run_id: id,
      evaluation: f.evaluation,
      model: f.models.a,
      status: 'running',
      finished_at: null,
      source_evaluation_run_id: null,
    });
    expect((await send(`${base}/evaluation_runs/nope`)).status).toBe(404);
    const { prediction_id } = await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs: { q: 1 }, output: 1 });
    expect((await send(`${base}/evaluation_runs/${prediction_id}`)).status).toBe(404);
    expect((await send(`/v2/bob-co/runs/evaluation_runs/${id}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/evaluation_runs', () => {
  it('deletes runs with their rows, predictions and scores; other call ids are left alone', async () => {
    const id = await newRun();
    const { prediction_id } = await t.alice.client.predictionCreate({
      ...f.path,
      model: f.models.a,
      inputs: { q: 1 },
      output: 1,
      evaluation_run_id: id,
    });
    await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.exact, value: true, evaluation_run_id: id });
    const standalone = (await t.alice.client.predictionCreate({ ...f.path, model: f.models.a, inputs: { q: 2 }, output: 2 })).prediction_id;
    const res = await send(`${base}/evaluation_runs?evaluation_run_ids=${id}&evaluation_run_ids=${standalone}`, { method: 'DELETE' });
    expect(res).toEqual({ status: 200, body: { num_deleted: 4 } }); // run, row, prediction, score
    expect(await call(id)).toBeNull();
    expect(await call(standalone)).not.toBeNull();
    expect((await send(`${base}/evaluation_runs`, { method: 'DELETE' })).status).toBe(422);
    expect((await send(`/v2/bob-co/runs/evaluation_runs?evaluation_run_ids=${id}`, { method: 'DELETE' })).status).toBe(403);
  });
});

describe('POST /v2/:entity/:project/evaluation_runs/:evaluation_run_id/finish', () => {
  it('ends open rows, summarizes scores into an Evaluation.summarize child and the run output', async () => {
    const id = await newRun();
    const outputs = [
      ['4', true, 1],
      ['Lyon', false, 0.25],
      ['blue', true, 0.5],
    ] as const;
    for (const [i, [output, exact, closeness]] of outputs.entries()) {
      const { prediction_id } = await t.alice.client.predictionCreate({
        ...f.path,
        model: f.models.a,
        inputs: { i },
        output,
        evaluation_run_id: id,
      });
      await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.exact, value: exact, evaluation_run_id: id });
      await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.closeness, value: closeness, evaluation_run_id: id });
      if (i < 2) await t.alice.client.predictionFinish({ ...f.path, prediction_id });
    }
    expect(await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id: id, summary: { note: 'nightly' } })).toEqual({
      success: true,
    });
    const expected = {
      exact: { true_count: 2, true_fraction: 2 / 3 },
      closeness: { mean: (1 + 0.25 + 0.5) / 3 },
      model_latency: { mean: expect.any(Number) },
    };
    const run = await call(id);
    expect(run.output).toEqual(expected);
    expect(run.summary).toMatchObject({ note: 'nightly', weave: { status: 'success' } });
    const kids = await children(id);
    const summarize = kids.find((c) => c.op_name.includes('/op/Evaluation.summarize:'))!;
    expect(summarize).toMatchObject({ inputs: { self: f.evaluation }, output: expected, trace_id: id });
    expect(kids.filter((c) => c !== summarize).every((c) => c.ended_at !== null)).toBe(true);
    const read = await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id: id });
    expect(read).toMatchObject({ status: 'completed', finished_at: run.ended_at });
  });

  it("ends a failed run with the exception the Python SDK's EvaluationLoggerV2.fail sends, so it reads as failed", async () => {
    const id = await newRun();
    const res = await send(`${base}/evaluation_runs/${id}/finish`, {
      json: { project_id: f.projectId, evaluation_run_id: id, summary: null, exception: 'RuntimeError: judge timed out', wb_user_id: null },
    });
    expect(res.status).toBe(200);
    const run = await call(id);
    expect(run.exception).toBe('RuntimeError: judge timed out');
    expect(run.summary).toMatchObject({ weave: { status: 'error' } });
    expect(await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id: id })).toMatchObject({
      status: 'failed',
      finished_at: run.ended_at,
    });
  });

  it('answers 409 when already finished, 404 for an unknown run, 403 in another entity', async () => {
    const id = await newRun();
    await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id: id });
    expect((await call(id)).output).toEqual({});
    expect((await send(`${base}/evaluation_runs/${id}/finish`, { json: {} })).status).toBe(409);
    expect((await send(`${base}/evaluation_runs/nope/finish`, { json: {} })).status).toBe(404);
    expect((await send(`${base}/evaluation_runs/${id}/finish`, { json: { summary: 'done' } })).status).toBe(422);
    expect((await send(`/v2/bob-co/runs/evaluation_runs/${id}/finish`, { json: {} })).status).toBe(403);
  });
});
