/**
 * An evaluation logger's small writes are served on the main thread (their routes
 * run `main-when-small`), and whatever could make one of them large goes to a write thread as
 * before: a body over SMALL_BODY_BYTES or without a declared length, and reads past
 * the main thread's budget of rows or bytes (mainThreadBudget.ts); such a request is then served
 * from the start on the thread.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { useTestServer } from '../testing/serverSuite.js';
import { MAIN_THREAD_BYTES, MAIN_THREAD_ROWS } from './mainThreadBudget.js';
import { SMALL_BODY_BYTES } from './threadedApp.js';

const t = useTestServer({ env: { WEFT_THREADS: '1' } });
let f: EvaluationFixture;
let base: string;
let runId: string;
beforeAll(async () => {
  f = await publishEvaluation(t.alice.client, 'alice-co', 'main-writes');
  base = '/v2/alice-co/main-writes';
  runId = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
});

/** What `send` answered, and how many requests it handed to a write thread. */
async function handedWrites(send: () => Promise<Response>): Promise<{ status: number; body: any; handed: number }> {
  const before = t.server.threads!.handed.write;
  const res = await send();
  return { status: res.status, body: await res.json(), handed: t.server.threads!.handed.write - before };
}

const post = (path: string, json: unknown) => t.fetch(`${base}${path}`, { json });
const predict = (inputs: Record<string, unknown>) =>
  post('/predictions', { model: f.models.a, inputs, output: 'a', evaluation_run_id: runId });
const score = (prediction_id: string, value: unknown) =>
  post('/scores', { prediction_id, scorer: f.scorers.exact, value, evaluation_run_id: runId });
const rowOf = async (predictionId: string) => {
  const prediction = (await t.alice.client.callRead({ project_id: f.projectId, id: predictionId })).call!;
  return (await t.alice.client.callRead({ project_id: f.projectId, id: prediction.parent_id! })).call!;
};

describe('evaluation writes on the main thread', () => {
  it('serves a prediction, its scores and its finish without a write thread', async () => {
    const created = await handedWrites(() => predict({ question: 'q' }));
    expect(created).toMatchObject({ status: 200, handed: 0 });
    const id = created.body.prediction_id as string;
    for (const value of [true, false]) expect(await handedWrites(() => score(id, value))).toMatchObject({ status: 200, handed: 0 });
    expect(await handedWrites(() => post(`/predictions/${id}/finish`, {}))).toMatchObject({ status: 200, handed: 0 });
    const row = await rowOf(id);
    expect(row.ended_at).not.toBeNull();
    expect(row.output).toMatchObject({ output: 'a' });
  });

  it('answers a bad request there as a thread would: 422 and 404 with their reasons', async () => {
    const invalid = await handedWrites(() => post('/scores', { prediction_id: 7 }));
    expect(invalid).toMatchObject({ status: 422, handed: 0 });
    expect(invalid.body.detail[0].loc).toEqual(['body', 'prediction_id']);
    const missing = await handedWrites(() => score('no-such-prediction', 1));
    expect(missing).toMatchObject({ status: 404, handed: 0 });
    expect(missing.body.reason).toMatch(/Prediction no-such-prediction not found/);
  });

  it('hands a body over the size limit, or of no declared size, to a write thread', async () => {
    const big = await handedWrites(() => predict({ text: 'x'.repeat(SMALL_BODY_BYTES) }));
    expect(big).toMatchObject({ status: 200, handed: 1 });
    const json = JSON.stringify({ model: f.models.a, inputs: { question: 'streamed' }, output: 'a' });
    const chunked = await handedWrites(() =>
      t.fetch(`${base}/predictions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([json]).stream(),
        duplex: 'half',
      } as RequestInit),
    );
    expect(chunked).toMatchObject({ status: 200, handed: 1 });
  });

  it('hands a score of a prediction holding more than the byte budget to a write thread', async () => {
    // Created on a thread (its body is over the size limit); its score would read it all.
    const big = 'y'.repeat(MAIN_THREAD_BYTES);
    const created = await handedWrites(() => predict({ document: big }));
    expect(created).toMatchObject({ status: 200, handed: 1 });
    const id = created.body.prediction_id as string;
    expect(await handedWrites(() => score(id, 0.5))).toMatchObject({ status: 200, handed: 1 });
    // The score call holds the prediction's inputs, as the reference's does.
    const scores = (await t.alice.client.callsQuery({ project_id: f.projectId, filter: { parent_ids: [(await rowOf(id)).id] } })).calls;
    expect(scores.find((c) => c.id !== id)?.inputs).toMatchObject({ inputs: { document: big } });
  });

  it('hands a finish that reads past the row budget to a write thread, which reads every score', async () => {
    const id = (await (await predict({ question: 'many scores' })).json()).prediction_id as string;
    // The row's children: the prediction and its scores, one more than the budget in all.
    for (let i = 0; i < MAIN_THREAD_ROWS; i++) expect((await score(id, i)).status).toBe(200);
    const finished = await handedWrites(() => post(`/predictions/${id}/finish`, { output: 'final' }));
    expect(finished).toMatchObject({ status: 200, handed: 1 });
    // The row holds the last score (they all come from one scorer): the thread read them all.
    expect((await rowOf(id)).output).toMatchObject({ output: 'final', scores: { exact: MAIN_THREAD_ROWS - 1 } });
    expect((await t.alice.client.callRead({ project_id: f.projectId, id })).call!.output).toBe('final');
  });
});
