/**
 * An evaluation published through the v2 APIs, for tests of runs, predictions, scores and
 * eval results: a three-row dataset, two scorers (`exact`, `closeness`), two models and an
 * evaluation over them.
 *
 * @example
 * const f = await publishEvaluation(t.alice.client, 'alice-co', 'evals');
 * const { evaluation_run_id } = await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a });
 */
import type { WeftClient } from '../../client/index.js';

export const FIXTURE_ROWS = [
  { question: 'What is 2+2?', expected: '4' },
  { question: 'Capital of France?', expected: 'Paris' },
  { question: 'Colour of the sky?', expected: 'blue' },
];

export interface EvaluationFixture {
  path: { entity: string; project: string };
  projectId: string;
  dataset: string;
  scorers: { exact: string; closeness: string };
  models: { a: string; b: string };
  evaluation: string;
}

export async function publishEvaluation(client: WeftClient, entity: string, project: string): Promise<EvaluationFixture> {
  const path = { entity, project };
  const projectId = `${entity}/${project}`;
  const ds = await client.datasetCreate({ ...path, name: 'quiz', rows: FIXTURE_ROWS });
  const dataset = `weave:///${projectId}/object/quiz:${ds.digest}`;
  const exact = (
    await client.scorerCreate({ ...path, name: 'exact', op_source_code: 'def score(output, expected): return output == expected' })
  ).scorer;
  const closeness = (await client.scorerCreate({ ...path, name: 'closeness', op_source_code: 'def score(output, expected): return 0.5' }))
    .scorer;
  const a = (await client.modelCreate({ ...path, name: 'model-a', source_code: 'def predict(question): ...' })).model_ref;
  const b = (await client.modelCreate({ ...path, name: 'model-b', source_code: 'def predict(question): return "?"' })).model_ref;
  const evaluation = (await client.evaluationCreate({ ...path, name: 'quiz-eval', dataset, scorers: [exact, closeness] })).evaluation_ref;
  return { path, projectId, dataset, scorers: { exact, closeness }, models: { a, b }, evaluation };
}
