/**
 * LLM objects as the SDKs and the playground store them, for tests of evaluate_model,
 * calls/score and monitors: an LLMStructuredCompletionModel, an LLMAsAJudgeScorer using it,
 * and an Evaluation over a small dataset with that judge.
 */
import type { WeftClient } from '../../client/index.js';

export const LLM_ROWS = [{ question: 'What is two plus two?' }, { question: 'Name a colour' }, { question: 'Say hello' }];

export async function publishLlmEvaluation(
  client: WeftClient,
  projectId: string,
  options: { model: string; judgeModel?: string; rows?: Record<string, unknown>[] },
): Promise<{ modelRef: string; judgeRef: string; evaluationRef: string; datasetRef: string }> {
  const [entity, project] = projectId.split('/') as [string, string];
  const ref = (id: string, digest: string) => `weave:///${projectId}/object/${id}:${digest}`;
  const create = async (objectId: string, val: Record<string, unknown>) =>
    ref(objectId, (await client.objCreate({ obj: { project_id: projectId, object_id: objectId, val } })).digest);

  const modelRef = await create('answerer', {
    _class_name: 'LLMStructuredCompletionModel',
    _bases: ['Model', 'Object', 'BaseModel'],
    name: 'answerer',
    llm_model_id: options.model,
    default_params: { messages_template: [{ role: 'user', content: 'Answer: {question}' }], temperature: 0, response_format: 'text' },
  });
  const judgeModelRef = await create('judge-model', {
    _class_name: 'LLMStructuredCompletionModel',
    _bases: ['Model', 'Object', 'BaseModel'],
    llm_model_id: options.judgeModel ?? options.model,
    default_params: { messages_template: [], response_format: 'json' },
  });
  const judgeRef = await create('helpfulness', {
    _class_name: 'LLMAsAJudgeScorer',
    _bases: ['Scorer', 'Object', 'BaseModel'],
    name: 'helpfulness',
    model: judgeModelRef,
    scoring_prompt: 'Rate the answer {output} to {question}',
  });
  const ds = await client.datasetCreate({ entity, project, name: 'questions', rows: options.rows ?? LLM_ROWS });
  const datasetRef = ref('questions', ds.digest);
  const evaluationRef = await create('qa-eval', {
    _class_name: 'Evaluation',
    _bases: ['Object', 'BaseModel'],
    name: 'qa-eval',
    dataset: datasetRef,
    scorers: [judgeRef],
    trials: 1,
  });
  return { modelRef, judgeRef, evaluationRef, datasetRef };
}
