/**
 * v2 scorers, models and evaluations over HTTP: their stored values and ops, lists, reads,
 * deletes; 400 / 404 for bad refs, 422 and 403.
 */
import { describe, expect, it } from 'vitest';
import { EvaluationReadRes, ModelReadRes, ScorerReadRes } from '../../contract/v2Objects.js';
import { collect, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();

let n = 0;
const fresh = () => {
  const project = `v2m-${++n}`;
  return { entity: 'alice-co', project, id: `alice-co/${project}`, base: `/v2/alice-co/${project}` };
};
type P = ReturnType<typeof fresh>;

const send = sendAsAlice(t);

const val = async (p: P, objectId: string, digest: string) =>
  (await t.alice.client.objRead({ project_id: p.id, object_id: objectId, digest })).obj.val as Record<string, unknown>;

describe('POST /v2/:entity/:project/scorers', () => {
  it('creates the scorer with its <id>_score and <id>_summarize ops, answering its ref', async () => {
    const p = fresh();
    const res = await t.alice.client.scorerCreate({
      entity: p.entity,
      project: p.project,
      name: 'Exact Match',
      op_source_code: 'def score(output, expected): return output == expected',
    });
    expect(res).toMatchObject({ object_id: 'exact_match', version_index: 0, scorer: `weave:///${p.id}/object/exact_match:${res.digest}` });
    const stored = await val(p, 'exact_match', res.digest);
    expect(stored).toMatchObject({
      _type: 'Scorer',
      _class_name: 'Scorer',
      _bases: ['Object', 'BaseModel'],
      name: 'Exact Match',
      description: null,
      column_map: null,
    });
    expect(stored.score).toMatch(new RegExp(`^weave:///${p.id}/op/exact_match_score:`));
    const score = await t.alice.client.opRead({ entity: p.entity, project: p.project, object_id: 'exact_match_score', digest: 'latest' });
    expect(score.code).toContain('return output == expected');
    expect(
      (await t.alice.client.opRead({ entity: p.entity, project: p.project, object_id: 'exact_match_summarize', digest: 'latest' })).code,
    ).toContain('auto_summarize');
  });

  it('answers 422 without name or code, 403 in another entity', async () => {
    const p = fresh();
    expect((await send(`${p.base}/scorers`, { json: { op_source_code: 'x' } })).status).toBe(422);
    expect((await send(`${p.base}/scorers`, { json: { name: 'x' } })).status).toBe(422);
    expect((await send('/v2/bob-co/x/scorers', { json: { name: 'x', op_source_code: 'x' } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/scorers', () => {
  it('lists scorer versions with their score op ref', async () => {
    const p = fresh();
    await t.alice.client.scorerCreate({ entity: p.entity, project: p.project, name: 's', op_source_code: '1' });
    await t.alice.client.scorerCreate({ entity: p.entity, project: p.project, name: 's', description: 'v2', op_source_code: '2' });
    const lines = (await collect(t.alice.client.scorerList({ entity: p.entity, project: p.project }))).map((s) => ScorerReadRes.parse(s));
    expect(lines.map((s) => [s.version_index, s.description])).toEqual([
      [0, null],
      [1, 'v2'],
    ]);
    expect(lines[1]!.score_op).toMatch(/\/op\/s_score:/);
    expect((await send('/v2/bob-co/x/scorers')).status).toBe(403);
    expect((await send(`${p.base}/scorers?limit=-1`)).status).toBe(422);
  });
});

describe('GET /v2/:entity/:project/scorers/:object_id/versions/:digest', () => {
  it('reads one version; 404 when unknown', async () => {
    const p = fresh();
    const s = await t.alice.client.scorerCreate({ entity: p.entity, project: p.project, name: 's', op_source_code: '1' });
    expect(await t.alice.client.scorerRead({ entity: p.entity, project: p.project, object_id: 's', digest: s.digest })).toMatchObject({
      name: 's',
      digest: s.digest,
    });
    expect((await send(`${p.base}/scorers/s/versions/v7`)).status).toBe(404);
    expect((await send(`/v2/bob-co/x/scorers/s/versions/${s.digest}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/scorers/:object_id', () => {
  it('deletes the scorer (its ops stay, as ops of their own)', async () => {
    const p = fresh();
    await t.alice.client.scorerCreate({ entity: p.entity, project: p.project, name: 's', op_source_code: '1' });
    expect(await t.alice.client.scorerDelete({ entity: p.entity, project: p.project, object_id: 's' })).toEqual({ num_deleted: 1 });
    expect(await collect(t.alice.client.scorerList({ entity: p.entity, project: p.project }))).toEqual([]);
    expect(await collect(t.alice.client.opList({ entity: p.entity, project: p.project }))).toHaveLength(2);
    expect((await send(`${p.base}/scorers/s`, { method: 'DELETE' })).status).toBe(404);
    expect((await send('/v2/bob-co/x/scorers/s', { method: 'DELETE' })).status).toBe(403);
  });
});

describe('POST /v2/:entity/:project/models', () => {
  it('stores the source as obj.py and merges attributes into the value (1.0 kept)', async () => {
    const p = fresh();
    const body = '{"name": "Echo", "source_code": "def predict(q): return q", "attributes": {"temperature": 1.0, "prompt": "hi"}}';
    const res = await send(`${p.base}/models`, { body });
    expect(res.body).toMatchObject({ object_id: 'echo', model_ref: `weave:///${p.id}/object/echo:${res.body.digest}` });
    expect(await val(p, 'echo', res.body.digest)).toMatchObject({
      _type: 'Model',
      name: 'Echo',
      temperature: 1,
      prompt: 'hi',
      files: { 'obj.py': expect.any(String) },
    });
    const read = ModelReadRes.parse(
      await t.alice.client.modelRead({ entity: p.entity, project: p.project, object_id: 'echo', digest: res.body.digest }),
    );
    expect(read).toMatchObject({ source_code: 'def predict(q): return q', attributes: { temperature: 1, prompt: 'hi' } });
    const plain = await send(`${p.base}/models`, {
      json: { name: 'Echo', source_code: 'def predict(q): return q', attributes: { temperature: 1, prompt: 'hi' } },
    });
    expect(plain.body.digest).not.toBe(res.body.digest);
  });

  it('answers 400 for attributes that would overwrite the model fields, 422 without source, 403 elsewhere', async () => {
    const p = fresh();
    const clash = await send(`${p.base}/models`, { json: { name: 'm', source_code: 'x', attributes: { _type: 'Dataset' } } });
    expect(clash.status).toBe(400);
    expect(clash.body.reason).toContain('_type');
    expect((await send(`${p.base}/models`, { json: { name: 'm' } })).status).toBe(422);
    expect((await send('/v2/bob-co/x/models', { json: { name: 'm', source_code: 'x' } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/models', () => {
  it('lists models with source and attributes (null when none)', async () => {
    const p = fresh();
    await t.alice.client.modelCreate({ entity: p.entity, project: p.project, name: 'a', source_code: 'src' });
    const [line] = await collect(t.alice.client.modelList({ entity: p.entity, project: p.project }));
    expect(line).toMatchObject({ object_id: 'a', source_code: 'src', attributes: null });
    expect((await send(`${p.base}/models?limit=x`)).status).toBe(422);
    expect((await send('/v2/bob-co/x/models')).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/models/:object_id/versions/:digest', () => {
  it('404 for a missing version and for a dataset read as a model', async () => {
    const p = fresh();
    await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'ds', rows: [] });
    expect((await send(`${p.base}/models/ds/versions/latest`)).status).toBe(404);
    expect((await send(`${p.base}/models/none/versions/latest`)).status).toBe(404);
    expect((await send('/v2/bob-co/x/models/ds/versions/latest')).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/models/:object_id', () => {
  it('deletes one listed version', async () => {
    const p = fresh();
    const m = await t.alice.client.modelCreate({ entity: p.entity, project: p.project, name: 'a', source_code: '1' });
    await t.alice.client.modelCreate({ entity: p.entity, project: p.project, name: 'a', source_code: '2' });
    expect(await t.alice.client.modelDelete({ entity: p.entity, project: p.project, object_id: 'a', digests: [m.digest] })).toEqual({
      num_deleted: 1,
    });
    expect((await collect(t.alice.client.modelList({ entity: p.entity, project: p.project }))).map((x) => x.version_index)).toEqual([1]);
    expect((await send(`${p.base}/models/a?digests=${m.digest}`, { method: 'DELETE' })).status).toBe(404);
    expect((await send('/v2/bob-co/x/models/a', { method: 'DELETE' })).status).toBe(403);
  });
});

/** A dataset and a scorer to build evaluations from. */
async function parts(p: P) {
  const ds = await t.alice.client.datasetCreate({ entity: p.entity, project: p.project, name: 'ds', rows: [{ q: 1 }, { q: 2 }] });
  const scorer = await t.alice.client.scorerCreate({ entity: p.entity, project: p.project, name: 'sc', op_source_code: 'x' });
  return { dataset: `weave:///${p.id}/object/ds:${ds.digest}`, scorer: scorer.scorer };
}

describe('POST /v2/:entity/:project/evaluations', () => {
  it('stores the evaluation with dataset, scorers, trials and its three placeholder ops', async () => {
    const p = fresh();
    const { dataset, scorer } = await parts(p);
    const res = await t.alice.client.evaluationCreate({
      entity: p.entity,
      project: p.project,
      name: 'QA Eval',
      dataset,
      scorers: [scorer],
      trials: 2,
      eval_attributes: { owner: 'qa' },
    });
    expect(res.evaluation_ref).toBe(`weave:///${p.id}/object/qa_eval:${res.digest}`);
    const stored = await val(p, 'qa_eval', res.digest);
    expect(stored).toMatchObject({
      _type: 'Evaluation',
      name: 'QA Eval',
      dataset,
      scorers: [scorer],
      trials: 2,
      evaluation_name: null,
      owner: 'qa',
    });
    for (const op of ['evaluate', 'predict_and_score', 'summarize']) expect(stored[op]).toMatch(new RegExp(`/op/qa_eval_${op}:`));
  });

  it('answers 400 for a malformed or foreign dataset ref, 404 for a missing one, 422 without dataset, 403 elsewhere', async () => {
    const p = fresh();
    const { dataset } = await parts(p);
    const post = (body: unknown) => send(`${p.base}/evaluations`, { json: body });
    expect((await post({ name: 'e', dataset: 'not a ref' })).status).toBe(400);
    expect((await post({ name: 'e', dataset: dataset.replace(p.id, 'alice-co/other') })).status).toBe(400);
    expect((await post({ name: 'e', dataset: dataset.replace(/:[^:]+$/, `:${'A'.repeat(43)}`) })).status).toBe(404);
    expect((await post({ name: 'e', dataset, scorers: [`weave:///${p.id}/object/nope:${'B'.repeat(43)}`] })).status).toBe(404);
    expect((await post({ name: 'e' })).status).toBe(422);
    expect((await send('/v2/bob-co/x/evaluations', { json: { name: 'e', dataset } })).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/evaluations', () => {
  it('lists evaluations with their refs', async () => {
    const p = fresh();
    const { dataset } = await parts(p);
    await t.alice.client.evaluationCreate({ entity: p.entity, project: p.project, name: 'e', dataset, evaluation_name: 'nightly' });
    const lines = (await collect(t.alice.client.evaluationList({ entity: p.entity, project: p.project }))).map((e) =>
      EvaluationReadRes.parse(e),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      name: 'e',
      dataset,
      scorers: [],
      trials: 1,
      evaluation_name: 'nightly',
      predict_and_score_op: expect.stringContaining('/op/e_predict_and_score:'),
    });
    expect((await send(`${p.base}/evaluations?limit=x`)).status).toBe(422);
    expect((await send('/v2/bob-co/x/evaluations')).status).toBe(403);
  });
});

describe('GET /v2/:entity/:project/evaluations/:object_id/versions/:digest', () => {
  it('reads a version; 404 when unknown', async () => {
    const p = fresh();
    const { dataset } = await parts(p);
    const e = await t.alice.client.evaluationCreate({ entity: p.entity, project: p.project, name: 'e', dataset });
    expect(await t.alice.client.evaluationRead({ entity: p.entity, project: p.project, object_id: 'e', digest: e.digest })).toMatchObject({
      digest: e.digest,
      dataset,
    });
    expect((await send(`${p.base}/evaluations/e/versions/${'C'.repeat(43)}`)).status).toBe(404);
    expect((await send(`/v2/bob-co/x/evaluations/e/versions/${e.digest}`)).status).toBe(403);
  });
});

describe('DELETE /v2/:entity/:project/evaluations/:object_id', () => {
  it('deletes the evaluation; 403 in another entity', async () => {
    const p = fresh();
    const { dataset } = await parts(p);
    await t.alice.client.evaluationCreate({ entity: p.entity, project: p.project, name: 'e', dataset });
    expect(await t.alice.client.evaluationDelete({ entity: p.entity, project: p.project, object_id: 'e' })).toEqual({ num_deleted: 1 });
    expect((await send(`${p.base}/evaluations/e`, { method: 'DELETE' })).status).toBe(404);
    expect((await send('/v2/bob-co/x/evaluations/e', { method: 'DELETE' })).status).toBe(403);
  });
});
