/**
 * The reference's own tests of the v2 API (ops, datasets, scorers, models, evaluations,
 * evaluation runs, predictions, scores and eval_results/query), re-sent over HTTP as its
 * Python client sends them, for every backend: tests/trace/test_trace_server_v2_api.py
 * (public wandb/weave). Creates post the body without project_id; reads and lists are GETs and
 * deletes DELETEs with query parameters. What is not ported is in docs/reference/coverage.md.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { pyEndedCall, pyStartedCall, type PyJson } from '../../testing/pythonClient.js';
import { referenceHttp } from './referenceHttp.js';

const modelSource = (cls: string, body = '        return "output"') =>
  `import weave\n\nclass ${cls}(weave.Model):\n    @weave.op\n    def predict(self, input):\n${body}\n`;

export function describeReferenceEvaluationsConformance(backend: TestBackend): void {
  describe('reference tests: v2 API and eval results', () => {
    const t = useTestServer({ env: backend.serverEnv });
    const http = referenceHttp(t);

    const v2 = (P: string, rest: string) => `/v2/${P}/${rest}`;
    const ref = (P: string, res: PyJson) => `weave:///${P}/object/${res.object_id}:${res.digest}`;

    // The creates, with every field of the reference's *CreateBody present.
    const op = (P: string, name: string, source_code: string) => http.ok(v2(P, 'ops'), { name, source_code });
    const dataset = (P: string, name: string, rows: unknown[], description: string | null = null) =>
      http.ok(v2(P, 'datasets'), { name, description, rows });
    const scorer = (P: string, name: string, op_source_code: string, description: string | null = null) =>
      http.ok(v2(P, 'scorers'), { name, description, op_source_code });
    const model = (P: string, name: string, source_code: string, over: Record<string, unknown> = {}) =>
      http.ok(v2(P, 'models'), { name, description: null, source_code, attributes: null, ...over });
    const evaluation = (P: string, name: string, datasetRef: string, over: Record<string, unknown> = {}) =>
      http.ok(v2(P, 'evaluations'), {
        name,
        description: null,
        dataset: datasetRef,
        scorers: [],
        trials: 1,
        evaluation_name: null,
        eval_attributes: null,
        ...over,
      });
    const run = async (P: string, evaluationRef: string, modelRef: string) =>
      (await http.ok(v2(P, 'evaluation_runs'), { evaluation: evaluationRef, model: modelRef })).evaluation_run_id as string;
    const prediction = async (P: string, modelRef: string, inputs: unknown, output: unknown, runId: string | null = null) =>
      (await http.ok(v2(P, 'predictions'), { model: modelRef, inputs, output, evaluation_run_id: runId })).prediction_id as string;
    const score = async (P: string, predictionId: string, scorerRef: string, value: unknown, runId: string | null = null) =>
      (await http.ok(v2(P, 'scores'), { prediction_id: predictionId, scorer: scorerRef, value, evaluation_run_id: runId }))
        .score_id as string;
    const finishPrediction = (P: string, id: string) => http.ok(v2(P, `predictions/${id}/finish`), { project_id: P, prediction_id: id });
    const callRead = async (P: string, id: string) => (await http.ok('/call/read', { project_id: P, id, include_costs: false })).call;

    /** A dataset and an evaluation of it, as most of the reference's run tests begin. */
    const evaluationOf = async (P: string, name: string, scorers: string[] = []) => {
      const ds = await dataset(P, `${name}_dataset`, [{ data: 'test' }]);
      return (await evaluation(P, name, ref(P, ds), { scorers })).evaluation_ref as string;
    };

    describe('TestOpsV2API', () => {
      it('test_op_create: object_id from the name, version 0', async () => {
        const P = http.project('v2');
        const res = await op(P, 'test_op', 'def test_op():\n    return 42');
        expect(res.object_id).toBe('test_op');
        expect(res.digest).toBeTruthy();
        expect(res.version_index).toBe(0);
      });

      it('test_op_read: the code and created_at read back', async () => {
        const P = http.project('v2');
        const code = "def my_test_op():\n    return 'hello world'";
        const created = await op(P, 'readable_op', code);
        const read = await http.okQuery('GET', v2(P, `ops/readable_op/versions/${created.digest}`));
        expect(read).toMatchObject({ object_id: 'readable_op', digest: created.digest, version_index: 0, code });
        expect(read.created_at).toBeTruthy();
      });

      it('test_op_list and test_op_list_with_limit', async () => {
        const P = http.project('v2');
        for (let i = 0; i < 5; i++) await op(P, `list_test_op_${i}`, `def op_${i}():\n    return ${i}`);
        const ops = (await http.okQuery('GET', v2(P, 'ops'))) as PyJson[];
        expect(ops.length).toBeGreaterThanOrEqual(3);
        expect(ops.map((o) => o.object_id)).toEqual(expect.arrayContaining(['list_test_op_0', 'list_test_op_1', 'list_test_op_2']));
        expect(await http.okQuery('GET', v2(P, 'ops'), { limit: 2 })).toHaveLength(2);
      });

      it('test_op_delete and test_op_delete_all_versions', async () => {
        const P = http.project('v2');
        const one = await op(P, 'deletable_op', 'def deletable():\n    pass');
        expect(await http.okQuery('DELETE', v2(P, 'ops/deletable_op'), { digests: [one.digest] })).toEqual({ num_deleted: 1 });
        for (let i = 0; i < 3; i++) await op(P, 'multi_version_op', `def multi_version():\n    return ${i}`);
        expect(await http.okQuery('DELETE', v2(P, 'ops/multi_version_op'))).toEqual({ num_deleted: 3 });
      });
    });

    describe('TestDatasetsV2API', () => {
      it('test_dataset_create and test_dataset_read: name, description and the rows', async () => {
        const P = http.project('v2');
        const created = await dataset(
          P,
          'readable_dataset',
          [
            { question: 'What is 2+2?', answer: '4' },
            { question: 'What is the capital of France?', answer: 'Paris' },
          ],
          'Test dataset for reading',
        );
        expect(created).toMatchObject({ object_id: 'readable_dataset', version_index: 0 });
        const read = await http.okQuery('GET', v2(P, `datasets/${created.object_id}/versions/${created.digest}`));
        expect(read).toMatchObject({
          object_id: created.object_id,
          digest: created.digest,
          version_index: 0,
          name: 'readable_dataset',
          description: 'Test dataset for reading',
        });
        expect(read.rows).toBeTruthy();
        expect(read.created_at).toBeTruthy();
      });

      it('test_dataset_list and test_dataset_delete', async () => {
        const P = http.project('v2');
        for (let i = 0; i < 3; i++) await dataset(P, `list_dataset_${i}`, [{ value: i }]);
        const listed = (await http.okQuery('GET', v2(P, 'datasets'))) as PyJson[];
        expect(listed.map((d) => d.name)).toEqual(expect.arrayContaining(['list_dataset_0', 'list_dataset_1', 'list_dataset_2']));
        const gone = await dataset(P, 'deletable_dataset', [{ data: 'test' }]);
        expect(await http.okQuery('DELETE', v2(P, `datasets/${gone.object_id}`), { digests: [gone.digest] })).toEqual({ num_deleted: 1 });
      });
    });

    describe('TestScorersV2API', () => {
      it('test_scorer_create and test_scorer_read: name, description and the score op', async () => {
        const P = http.project('v2');
        const created = await scorer(
          P,
          'accuracy_scorer',
          'def accuracy_score(output, target):\n    return int(output == target)',
          'Measures accuracy',
        );
        expect(created).toMatchObject({ object_id: 'accuracy_scorer', version_index: 0 });
        const read = await http.okQuery('GET', v2(P, `scorers/${created.object_id}/versions/${created.digest}`));
        expect(read).toMatchObject({ object_id: created.object_id, digest: created.digest, version_index: 0, name: 'accuracy_scorer' });
        expect(read.description).toBe('Measures accuracy');
        expect(read.score_op).toBeTruthy();
        expect(read.created_at).toBeTruthy();
      });

      it('test_scorer_list and test_scorer_delete', async () => {
        const P = http.project('v2');
        for (let i = 0; i < 3; i++) await scorer(P, `list_scorer_${i}`, `def scorer_${i}():\n    return ${i}`);
        const listed = (await http.okQuery('GET', v2(P, 'scorers'))) as PyJson[];
        expect(listed.map((s) => s.name)).toEqual(expect.arrayContaining(['list_scorer_0', 'list_scorer_1', 'list_scorer_2']));
        const gone = await scorer(P, 'deletable_scorer', 'def deletable():\n    pass');
        expect(await http.okQuery('DELETE', v2(P, `scorers/${gone.object_id}`), { digests: [gone.digest] })).toEqual({ num_deleted: 1 });
      });
    });

    describe('TestEvaluationsV2API', () => {
      it('test_evaluation_create and test_evaluation_read: every field and the three ops', async () => {
        const P = http.project('v2');
        const ds = await dataset(P, 'read_eval_dataset', [{ data: 'value' }]);
        const created = await evaluation(P, 'readable_evaluation', ref(P, ds), {
          description: 'Test eval for reading',
          trials: 2,
          evaluation_name: 'custom_eval_name',
        });
        expect(created).toMatchObject({ object_id: 'readable_evaluation', version_index: 0 });
        expect(created.evaluation_ref).toBeTruthy();
        const read = await http.okQuery('GET', v2(P, `evaluations/${created.object_id}/versions/${created.digest}`));
        expect(read).toMatchObject({
          object_id: created.object_id,
          digest: created.digest,
          version_index: 0,
          name: 'readable_evaluation',
          description: 'Test eval for reading',
          dataset: ref(P, ds),
          scorers: [],
          trials: 2,
          evaluation_name: 'custom_eval_name',
        });
        for (const field of ['evaluate_op', 'predict_and_score_op', 'summarize_op', 'created_at']) expect(read[field]).toBeTruthy();
      });

      it('test_evaluation_list and test_evaluation_delete', async () => {
        const P = http.project('v2');
        const ds = ref(P, await dataset(P, 'list_eval_dataset', [{ x: 1 }]));
        for (let i = 0; i < 3; i++) await evaluation(P, `list_evaluation_${i}`, ds);
        const listed = (await http.okQuery('GET', v2(P, 'evaluations'))) as PyJson[];
        expect(listed.map((e) => e.name)).toEqual(expect.arrayContaining(['list_evaluation_0', 'list_evaluation_1', 'list_evaluation_2']));
        const gone = await evaluation(P, 'deletable_evaluation', ds);
        expect(await http.okQuery('DELETE', v2(P, `evaluations/${gone.object_id}`), { digests: [gone.digest] })).toEqual({
          num_deleted: 1,
        });
      });

      it('test_evaluation_with_scorers: both scorer refs read back', async () => {
        const P = http.project('v2');
        const ds = await dataset(P, 'scorer_eval_dataset', [{ input: 'test', expected: 'output' }]);
        const s1 = ref(P, await scorer(P, 'scorer_1', 'def score1():\n    return 1'));
        const s2 = ref(P, await scorer(P, 'scorer_2', 'def score2():\n    return 2'));
        const created = await evaluation(P, 'eval_with_scorers', ref(P, ds), { scorers: [s1, s2] });
        const read = await http.okQuery('GET', v2(P, `evaluations/${created.object_id}/versions/${created.digest}`));
        expect(read.scorers).toHaveLength(2);
        expect(read.scorers).toEqual(expect.arrayContaining([s1, s2]));
      });
    });

    describe('TestV2APIIntegration', () => {
      it('test_complete_evaluation_workflow: the evaluation links dataset and scorers, each readable', async () => {
        const P = http.project('v2');
        const ds = await dataset(
          P,
          'workflow_dataset',
          [
            { question: 'What is 2+2?', answer: '4' },
            { question: 'What is 3+3?', answer: '6' },
          ],
          'Dataset for workflow test',
        );
        const exact = await scorer(P, 'exact_match', 'def score(output, answer):\n    return output == answer', 'Checks for exact match');
        const length = await scorer(P, 'length_check', 'def score(output):\n    return len(output)', 'Checks answer length');
        const created = await evaluation(P, 'math_evaluation', ref(P, ds), {
          description: 'Evaluates math questions',
          scorers: [ref(P, exact), ref(P, length)],
          trials: 3,
          evaluation_name: 'Math Quiz v1',
        });
        const read = await http.okQuery('GET', v2(P, `evaluations/${created.object_id}/versions/${created.digest}`));
        expect(read).toMatchObject({ name: 'math_evaluation', dataset: ref(P, ds), trials: 3, evaluation_name: 'Math Quiz v1' });
        expect(read.scorers).toHaveLength(2);
        expect(read.scorers).toEqual(expect.arrayContaining([ref(P, exact), ref(P, length)]));
        expect((await http.okQuery('GET', v2(P, `datasets/${ds.object_id}/versions/${ds.digest}`))).name).toBe('workflow_dataset');
        expect((await http.okQuery('GET', v2(P, `scorers/${exact.object_id}/versions/${exact.digest}`))).name).toBe('exact_match');
        expect((await http.okQuery('GET', v2(P, `scorers/${length.object_id}/versions/${length.digest}`))).name).toBe('length_check');
      });

      it('test_versioning_workflow: versions 0, 1, 2 with distinct digests, each readable', async () => {
        const P = http.project('v2');
        const versions: PyJson[] = [];
        for (let i = 0; i < 3; i++) versions.push(await op(P, 'versioned_op', `def versioned():\n    return ${i}`));
        expect(versions.map((v) => v.version_index)).toEqual([0, 1, 2]);
        expect(new Set(versions.map((v) => v.digest)).size).toBe(3);
        for (const v of versions) {
          const read = await http.okQuery('GET', v2(P, `ops/versioned_op/versions/${v.digest}`));
          expect(read).toMatchObject({ digest: v.digest, version_index: v.version_index });
        }
      });
    });

    describe('TestModelsV2API', () => {
      it('test_model_create and test_model_read: lower-cased id, source and attributes', async () => {
        const P = http.project('v2');
        const first = await model(P, 'TestModel', modelSource('TestModel'), {
          description: 'A test model',
          attributes: { temperature: 0.7 },
        });
        expect(first).toMatchObject({ object_id: 'testmodel', version_index: 0 });
        expect(first.model_ref).toBeTruthy();

        const source = modelSource('MyTestModel', '        return f"{self.prompt} {input}"');
        const created = await model(P, 'ReadableModel', source, {
          description: 'Model for testing reads',
          attributes: { prompt: 'Hello' },
        });
        const read = await http.okQuery('GET', v2(P, `models/${created.object_id}/versions/${created.digest}`));
        expect(read).toMatchObject({
          object_id: created.object_id,
          digest: created.digest,
          version_index: 0,
          name: 'ReadableModel',
          description: 'Model for testing reads',
          source_code: source,
        });
        expect(read.attributes.prompt).toBe('Hello');
        expect(read.created_at).toBeTruthy();
      });

      it('test_model_list, test_model_delete and test_model_delete_all_versions', async () => {
        const P = http.project('v2');
        for (let i = 0; i < 3; i++) await model(P, `ListTestModel${i}`, modelSource(`ListTestModel${i}`, `        return ${i}`));
        const listed = (await http.okQuery('GET', v2(P, 'models'))) as PyJson[];
        expect(listed.map((m) => m.name)).toEqual(expect.arrayContaining(['ListTestModel0', 'ListTestModel1', 'ListTestModel2']));
        const gone = await model(P, 'DeletableModel', modelSource('DeletableModel', '        pass'));
        expect(await http.okQuery('DELETE', v2(P, `models/${gone.object_id}`), { digests: [gone.digest] })).toEqual({ num_deleted: 1 });
        for (let i = 0; i < 3; i++) await model(P, 'MultiVersionModel', modelSource('MultiVersionModel', `        return ${i}`));
        expect(await http.okQuery('DELETE', v2(P, 'models/multiversionmodel'))).toEqual({ num_deleted: 3 });
      });
    });

    describe('TestEvaluationRunsV2API', () => {
      it('test_evaluation_run_create and test_evaluation_run_read: the run names its evaluation and model', async () => {
        const P = http.project('v2');
        const evalRef = await evaluationOf(P, 'read_eval_run_evaluation');
        const modelRef = (await model(P, 'ReadEvalRunModel', modelSource('ReadEvalRunModel'))).model_ref;
        const id = await run(P, evalRef, modelRef);
        expect(id).toBeTruthy();
        expect(await http.okQuery('GET', v2(P, `evaluation_runs/${id}`))).toMatchObject({
          evaluation_run_id: id,
          evaluation: evalRef,
          model: modelRef,
        });
      });

      it('test_evaluation_run_list, test_evaluation_run_delete and test_evaluation_run_finish', async () => {
        const P = http.project('v2');
        const evalRef = await evaluationOf(P, 'list_eval_run_evaluation');
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const m = await model(P, `ListEvalRunModel${i}`, modelSource(`ListEvalRunModel${i}`, `        return ${i}`));
          ids.push(await run(P, evalRef, m.model_ref));
        }
        const listed = (await http.okQuery('GET', v2(P, 'evaluation_runs'))) as PyJson[];
        expect(listed.map((r) => r.evaluation_run_id)).toEqual(expect.arrayContaining(ids));

        expect(await http.okQuery('DELETE', v2(P, 'evaluation_runs'), { evaluation_run_ids: [ids[0]!] })).toEqual({ num_deleted: 1 });
        const finished = await http.ok(v2(P, `evaluation_runs/${ids[1]}/finish`), {
          project_id: P,
          evaluation_run_id: ids[1],
          summary: { accuracy: 0.95, total: 100 },
        });
        expect(finished.success).toBe(true);
      });
    });

    describe('TestPredictionsV2API', () => {
      it('test_prediction_create and test_prediction_read: model, inputs and output read back', async () => {
        const P = http.project('v2');
        const modelRef = (await model(P, 'ReadPredictionModel', modelSource('ReadPredictionModel'))).model_ref;
        const id = await prediction(P, modelRef, { question: 'What is 2+2?' }, '4');
        expect(id).toBeTruthy();
        expect(await http.okQuery('GET', v2(P, `predictions/${id}`))).toMatchObject({
          prediction_id: id,
          model: modelRef,
          inputs: { question: 'What is 2+2?' },
          output: '4',
        });
      });

      it('test_prediction_read_with_none_inputs: a prediction call whose inputs are null reads inputs {}', async () => {
        const P = http.project('v2');
        const id = '019a0000-0000-7000-8000-00000000a001';
        await http.ok('/call/start', {
          start: pyStartedCall({
            project_id: P,
            id,
            trace_id: id,
            op_name: 'weave:///test/test/op/predict:abc123',
            attributes: { weave: { prediction: true, model: 'weave:///test/object/MyModel:v1' } },
            inputs: { inputs: null },
          }),
        });
        await http.ok('/call/end', { end: pyEndedCall({ project_id: P, id, output: 'some output', summary: {} }) });
        expect(await http.okQuery('GET', v2(P, `predictions/${id}`))).toMatchObject({
          prediction_id: id,
          inputs: {},
          output: 'some output',
        });
      });

      it('test_prediction_list and test_prediction_delete', async () => {
        const P = http.project('v2');
        const modelRef = (await model(P, 'ListPredictionModel', modelSource('ListPredictionModel'))).model_ref;
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await prediction(P, modelRef, { value: i }, `result_${i}`));
        const listed = (await http.okQuery('GET', v2(P, 'predictions'))) as PyJson[];
        expect(listed.map((p) => p.prediction_id)).toEqual(expect.arrayContaining(ids));
        expect(await http.okQuery('DELETE', v2(P, 'predictions'), { prediction_ids: ids.slice(0, 2) })).toEqual({ num_deleted: 2 });
      });

      it('test_prediction_with_evaluation_run: linked to the run; finishing puts output and model_latency on its parent', async () => {
        const P = http.project('v2');
        const evalRef = await evaluationOf(P, 'pred_eval_run_evaluation');
        const modelRef = (await model(P, 'PredEvalRunModel', modelSource('PredEvalRunModel'))).model_ref;
        const runId = await run(P, evalRef, modelRef);
        const id = await prediction(P, modelRef, { input: 'test' }, 'result', runId);
        expect((await http.okQuery('GET', v2(P, `predictions/${id}`))).evaluation_run_id).toBe(runId);
        expect((await finishPrediction(P, id)).success).toBe(true);

        const call = await callRead(P, id);
        expect(call.parent_id).toBeTruthy();
        const parent = await callRead(P, call.parent_id);
        expect(parent.output.output).toBe('result');
        expect(typeof parent.output.model_latency.mean).toBe('number');
        expect(parent.output.model_latency.mean).toBeGreaterThanOrEqual(0);
      });
    });

    describe('TestScoresV2API', () => {
      it('test_score_create and test_score_read: scorer and value read back', async () => {
        const P = http.project('v2');
        const scorerRef = ref(P, await scorer(P, 'read_score_scorer', 'def score(output):\n    return len(output)'));
        const modelRef = (await model(P, 'ReadScoreModel', modelSource('ReadScoreModel'))).model_ref;
        const predictionId = await prediction(P, modelRef, { input: 'question' }, 'answer');
        const id = await score(P, predictionId, scorerRef, 0.85);
        expect(id).toBeTruthy();
        expect(await http.okQuery('GET', v2(P, `scores/${id}`))).toMatchObject({ score_id: id, scorer: scorerRef, value: 0.85 });
      });

      it('test_score_list and test_score_delete', async () => {
        const P = http.project('v2');
        const scorerRef = ref(P, await scorer(P, 'list_score_scorer', 'def score(output):\n    return 1.0'));
        const modelRef = (await model(P, 'ListScoreModel', modelSource('ListScoreModel'))).model_ref;
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await score(P, await prediction(P, modelRef, { value: i }, `result_${i}`), scorerRef, i / 10));
        const listed = (await http.okQuery('GET', v2(P, 'scores'))) as PyJson[];
        expect(listed.map((s) => s.score_id)).toEqual(expect.arrayContaining(ids));
        expect(await http.okQuery('DELETE', v2(P, 'scores'), { score_ids: ids.slice(0, 2) })).toEqual({ num_deleted: 2 });
      });

      it('test_score_with_evaluation_run: the score reads back linked to the run', async () => {
        const P = http.project('v2');
        const scorerRef = ref(P, await scorer(P, 'eval_run_scorer', 'def score(output):\n    return 1.0'));
        const evalRef = await evaluationOf(P, 'score_eval_run_evaluation', [scorerRef]);
        const modelRef = (await model(P, 'ScoreEvalRunModel', modelSource('ScoreEvalRunModel'))).model_ref;
        const runId = await run(P, evalRef, modelRef);
        const predictionId = await prediction(P, modelRef, { input: 'test' }, 'result', runId);
        const id = await score(P, predictionId, scorerRef, 0.9, runId);
        expect((await http.okQuery('GET', v2(P, `scores/${id}`))).evaluation_run_id).toBe(runId);
      });
    });

    describe('TestEvalResultsReadAPI', () => {
      const results = (P: string, over: Record<string, unknown>) => http.ok(v2(P, 'eval_results/query'), { project_id: P, ...over });
      const summaryOf = async (P: string, runId: string) => {
        const res = await results(P, {
          evaluation_call_ids: [runId],
          require_intersection: false,
          include_rows: false,
          include_summary: true,
        });
        return (res.summary.evaluations as PyJson[]).find((e) => e.evaluation_call_id === runId);
      };
      const statOf = (evalSummary: PyJson, scorerKey: string, path: string | null) =>
        (evalSummary.scorer_stats as PyJson[]).find((s) => s.scorer_key === scorerKey && (s.path ?? null) === path);
      let n = 0;
      /** A score call the way the SDK's scorers write one: under the prediction's predict_and_score call. */
      const scoreCall = async (P: string, runId: string, predictionId: string, opName: string, scorerRef: string, output: unknown) => {
        const parent = (await callRead(P, predictionId)).parent_id as string;
        expect(parent).toBeTruthy();
        const id = `019a0000-0000-7000-8000-${String(++n).padStart(12, '0')}`;
        await http.ok('/call/start', {
          start: pyStartedCall({
            project_id: P,
            id,
            trace_id: runId,
            parent_id: parent,
            op_name: opName,
            attributes: { weave: { score: 'true', scorer: scorerRef } },
            inputs: { self: scorerRef },
            wb_user_id: 'test-user',
          }),
        });
        await http.ok('/call/end', { end: pyEndedCall({ project_id: P, id, output, summary: {} }) });
      };
      /** A run on non-weave refs with one prediction scored by a call writing `output`. */
      const scoredRun = async (P: string, scorerName: string, opName: string, output: unknown) => {
        const scorerRef = ref(P, await scorer(P, scorerName, 'def score(output):\n    return 1'));
        const runId = await run(P, `eval://${scorerName}`, `model://${scorerName}`);
        const predictionId = await prediction(P, `model://${scorerName}`, { x: 'data' }, 'output', runId);
        await scoreCall(P, runId, predictionId, opName, scorerRef, output);
        await finishPrediction(P, predictionId);
        return runId;
      };

      it('test_eval_results_query_intersection: only the row both runs share', async () => {
        const P = http.project('v2');
        const scorerRef = ref(P, await scorer(P, 'intersection_scorer', 'def score(output):\n    return 1'));
        const runA = await run(P, 'eval://a', 'model://a');
        const runB = await run(P, 'eval://b', 'model://b');
        const preds: Array<[string, string, string, number]> = [];
        for (const [runId, m, x, out, value] of [
          [runA, 'model://a', 'shared', 'a-shared', 0.5],
          [runA, 'model://a', 'only-a', 'a-only', 0.2],
          [runB, 'model://b', 'shared', 'b-shared', 0.8],
        ] as const)
          preds.push([await prediction(P, m, { x }, out, runId), runId, out, value]);
        for (const [id, runId, , value] of preds) await score(P, id, scorerRef, value, runId);
        for (const [id] of preds) await finishPrediction(P, id);

        const res = await results(P, { evaluation_call_ids: [runA, runB], require_intersection: true });
        expect(res.total_rows).toBe(1);
        expect(res.rows).toHaveLength(1);
        expect(new Set((res.rows[0].evaluations as PyJson[]).map((e) => e.evaluation_call_id))).toEqual(new Set([runA, runB]));
      });

      it('test_eval_results_summary_pass_signal: a scorer output {passed: true} is a binary pass rate', async () => {
        const P = http.project('v2');
        const runId = await scoredRun(P, 'pass_scorer', 'PassScorer.score', { passed: true });
        const evalSummary = await summaryOf(P, runId);
        expect(evalSummary.trial_count).toBe(1);
        expect(statOf(evalSummary, 'pass_scorer', 'passed')).toMatchObject({
          path: 'passed',
          value_type: 'binary',
          pass_known_count: 1,
          pass_true_count: 1,
          pass_rate: 1.0,
        });
      });

      it('test_eval_results_summary_nested_passed_dimension: one entry per leaf', async () => {
        const P = http.project('v2');
        const runId = await scoredRun(P, 'token_distance', 'TokenDistance.score', { passed: true, distance_tokens: 0 });
        const evalSummary = await summaryOf(P, runId);
        expect(evalSummary.trial_count).toBe(1);
        expect(evalSummary.scorer_stats).toHaveLength(2);
        expect(statOf(evalSummary, 'token_distance', 'passed')).toMatchObject({
          value_type: 'binary',
          pass_known_count: 1,
          pass_true_count: 1,
          pass_rate: 1.0,
        });
        expect(statOf(evalSummary, 'token_distance', 'distance_tokens')).toMatchObject({
          value_type: 'continuous',
          numeric_count: 1,
          numeric_mean: 0.0,
        });
      });

      it('test_eval_results_summary_numeric_mean: the mean of plain scores, no pass rate', async () => {
        const P = http.project('v2');
        const scorerRef = ref(P, await scorer(P, 'numeric_scorer', 'def score(output):\n    return 1.0'));
        const runId = await run(P, 'eval://numeric', 'model://numeric');
        for (const [i, value] of [0.5, 0.8, 0.2].entries()) {
          const id = await prediction(P, 'model://numeric', { row_id: i }, `output-${i}`, runId);
          await score(P, id, scorerRef, value, runId);
          await finishPrediction(P, id);
        }
        const evalSummary = await summaryOf(P, runId);
        expect(evalSummary.trial_count).toBe(3);
        const stats = statOf(evalSummary, 'numeric_scorer', null);
        expect(stats.numeric_count).toBe(3);
        expect(stats.numeric_mean).toBeCloseTo(0.5, 9);
        expect(stats.pass_rate).toBeNull();
        expect(stats.pass_known_count).toBe(0);
      });

      it('test_eval_results_query_multiple_scorers: both scorers in every trial and in the summary', async () => {
        const P = http.project('v2');
        const alphaRef = ref(P, await scorer(P, 'scorer_alpha', 'def score(output):\n    return True'));
        const betaRef = ref(P, await scorer(P, 'scorer_beta', 'def score(output):\n    return 0.5'));
        const runId = await run(P, 'eval://multi', 'model://multi');
        for (let i = 0; i < 2; i++) {
          const id = await prediction(P, 'model://multi', { row_id: i }, `out-${i}`, runId);
          await scoreCall(P, runId, id, 'ScorerAlpha.score', alphaRef, { passed: i === 0 });
          await score(P, id, betaRef, 0.1 * (i + 1), runId);
          await finishPrediction(P, id);
        }
        const res = await results(P, { evaluation_call_ids: [runId] });
        expect(res.total_rows).toBe(2);
        for (const row of res.rows as PyJson[])
          expect(Object.keys(row.evaluations[0].trials[0].scores)).toEqual(expect.arrayContaining(['scorer_alpha', 'scorer_beta']));

        const evalSummary = await summaryOf(P, runId);
        expect(statOf(evalSummary, 'scorer_alpha', 'passed')).toMatchObject({ pass_known_count: 2, pass_true_count: 1, pass_rate: 0.5 });
        const beta = statOf(evalSummary, 'scorer_beta', null);
        expect(beta.numeric_count).toBe(2);
        expect(beta.numeric_mean).toBeCloseTo(0.15, 9);
      });

      it('test_eval_results_summary_text_dimension_scalar: a string output is a text entry', async () => {
        const P = http.project('v2');
        const runId = await scoredRun(P, 'reasoning_scorer', 'ReasoningScorer.score', 'excellent reasoning here');
        const evalSummary = await summaryOf(P, runId);
        expect(evalSummary.scorer_stats).toHaveLength(1);
        expect(statOf(evalSummary, 'reasoning_scorer', null)).toMatchObject({
          value_type: 'text',
          trial_count: 1,
          numeric_count: 0,
          numeric_mean: null,
          pass_known_count: 0,
          pass_rate: null,
        });
      });

      it('test_eval_results_summary_text_dimension_mixed_dict: one text and one binary entry', async () => {
        const P = http.project('v2');
        const runId = await scoredRun(P, 'llm_judge', 'LLMJudge.score', { reasoning: 'the model answered correctly', passed: true });
        const evalSummary = await summaryOf(P, runId);
        expect(evalSummary.scorer_stats).toHaveLength(2);
        expect(statOf(evalSummary, 'llm_judge', 'reasoning')).toMatchObject({
          value_type: 'text',
          trial_count: 1,
          numeric_count: 0,
          numeric_mean: null,
          pass_known_count: 0,
          pass_rate: null,
        });
        expect(statOf(evalSummary, 'llm_judge', 'passed')).toMatchObject({
          value_type: 'binary',
          trial_count: 1,
          pass_true_count: 1,
          pass_rate: 1.0,
        });
      });
    });
  });
}
