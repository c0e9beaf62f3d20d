/**
 * The services object carries the clock handlers take "now" from: a server started with a
 * fixed clock records that time on what requests create, update, answer and delete, down to
 * the records the domain writes for them (object versions, evaluation calls, queue answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from './services.js';
import { publishEvaluation } from './testing/evaluationFixture.js';
import { startTestServer, type TestServer } from './testing/testServer.js';

const FIXED = Date.UTC(2031, 4, 6, 7, 8, 9, 123) * 1000 + 456;
const FIXED_ISO = '2031-05-06T07:08:09.123456Z';
const PROJECT = 'alice-co/clock';

describe('the services clock', () => {
  let t: TestServer;
  beforeAll(async () => {
    const clock: Clock = { nowMicros: () => FIXED };
    // In-process requests: a clock is code, and request threads keep the system clock.
    t = await startTestServer({ env: { WEFT_THREADS: '0' }, clock });
    // Changing a project's providers needs an admin of its entity (docs/security/roles.md).
    await t.server.store.accounts.setRole('alice', 'alice-co', 'admin');
  });
  afterAll(() => t.close());

  it('stamps feedback with the clock of the services object', async () => {
    const created = await t.alice.client.feedbackCreate({
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/c1`,
      feedback_type: 'note',
      payload: { note: 'on time' },
    });
    expect(created.created_at).toBe(FIXED_ISO);
  });

  it('stamps an annotation queue created, then updated, with it', async () => {
    const { id } = await t.alice.client.annotationQueueCreate({ project_id: PROJECT, name: 'q', scorer_refs: [] });
    const { queue } = await t.alice.client.annotationQueueUpdate({ project_id: PROJECT, queue_id: id, name: 'renamed' });
    expect([queue.name, queue.created_at, queue.updated_at]).toEqual(['renamed', FIXED_ISO, FIXED_ISO]);
  });

  it('stamps an object version, and one a v2 create writes through a write plan', async () => {
    const { digest } = await t.alice.client.objCreate({ obj: { project_id: PROJECT, object_id: 'config', val: { a: 1 } } });
    const read = await t.alice.client.objRead({ project_id: PROJECT, object_id: 'config', digest });
    const dataset = await t.alice.client.datasetCreate({ entity: 'alice-co', project: 'clock', name: 'rows', rows: [{ q: 1 }] });
    const datasetRead = await t.alice.client.objRead({ project_id: PROJECT, object_id: dataset.object_id, digest: dataset.digest });
    expect([read.obj.created_at, datasetRead.obj.created_at]).toEqual([FIXED_ISO, FIXED_ISO]);
  });

  it('starts and ends the calls of an evaluation run at its time', async () => {
    const f = await publishEvaluation(t.alice.client, 'alice-co', 'clock-runs');
    const { evaluation_run_id } = await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a });
    await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id });
    const { call } = await t.alice.client.callRead({ project_id: f.projectId, id: evaluation_run_id });
    expect([call!.started_at, call!.ended_at]).toEqual([FIXED_ISO, FIXED_ISO]);
  });

  it('stamps the feedback a queue answer writes', async () => {
    const val = { _type: 'AnnotationSpec', _class_name: 'AnnotationSpec', _bases: ['Object', 'BaseModel'], name: 'ok' };
    const spec = await t.alice.client.objCreate({
      obj: { project_id: PROJECT, object_id: 'ok', val: { ...val, field_schema: { type: 'boolean' }, op_scope: null } },
    });
    const ref = `weave:///${PROJECT}/object/ok:${spec.digest}`;
    const start = { project_id: PROJECT, id: 'c1', op_name: 'answer', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} };
    await t.alice.client.callStart({ start });
    const { id } = await t.alice.client.annotationQueueCreate({ project_id: PROJECT, name: 'answers', scorer_refs: [ref] });
    await t.alice.client.annotationQueueAddCalls({ project_id: PROJECT, queue_id: id, call_ids: ['c1'], display_fields: [] });
    const [item] = (await t.alice.client.annotationQueueItemsQuery({ project_id: PROJECT, queue_id: id })).items;
    const { feedback } = await t.alice.client.annotationQueueItemSubmit({
      project_id: PROJECT,
      queue_id: id,
      item_id: item!.id,
      annotations: [{ annotation_ref: ref, value: true }],
    });
    expect(feedback.map((f) => f.created_at)).toEqual([FIXED_ISO]);
  });

  it('stamps a model provider created and updated, and an API key revoked', async () => {
    const { provider } = await t.alice.client.providerCreate({ project_id: PROJECT, name: 'local', base_url: 'https://models.example/v1' });
    const updated = await t.alice.client.providerUpdate({ project_id: PROJECT, provider_id: provider.id, name: 'renamed' });
    expect([provider.created_at, updated.provider.updated_at]).toEqual([FIXED_ISO, FIXED_ISO]);
    const { api_key } = await t.alice.client.apiKeyCreate({ name: 'laptop' });
    const revoked = await t.alice.client.apiKeyRevoke({ key_id: api_key.key_id });
    expect(revoked.api_key.revoked_at).toBe(FIXED_ISO);
  });
});
