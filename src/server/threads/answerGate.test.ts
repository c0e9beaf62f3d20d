/**
 * A request's last writes (Store.applyLast) over real HTTP and a real SQLite file, with request
 * threads: the thread finishes the answer without waiting for the commit, and the main thread
 * holds that answer until the writes committed, or answers the commit's error instead.
 */
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteOp } from './messages.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { collect } from '../testing/serverSuite.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let f: EvaluationFixture;
let runId: string;
beforeAll(async () => {
  t = await startTestServer({ env: { WEFT_THREADS: '1' } });
  await t.server.threads!.whenReady();
  f = await publishEvaluation(t.alice.client, 'alice-co', 'gate');
  runId = (await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a })).evaluation_run_id;
});
afterAll(() => t.close());

const predictions = async () =>
  (await collect(t.alice.client.predictionList({ ...f.path, evaluation_run_id: runId }))).map((p) => p.inputs);
const predict = (question: string) =>
  t.fetch(`/v2/${f.path.entity}/${f.path.project}/predictions`, {
    json: { model: f.models.a, inputs: { question }, output: 'yes', evaluation_run_id: runId },
  });

/** The writer's group committer with its commits held back until `release` is called. */
function holdCommits(): { handed: WriteOp[][]; release: () => void } {
  const committer = t.server.threads!.committer;
  const submit = committer.submit.bind(committer);
  const handed: WriteOp[][] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  committer.submit = (ops) => {
    handed.push(ops);
    return released.then(() => submit(ops));
  };
  return {
    handed,
    release: () => {
      committer.submit = submit;
      release();
    },
  };
}

describe("a request's last writes", () => {
  it('are answered only once committed, though the thread finished the answer before', async () => {
    const held = holdCommits();
    let answered = false;
    const pending = predict('held?').then((res) => {
      answered = true;
      return res;
    });
    try {
      // The prediction's writes reach the writer: the thread no longer waits for anything...
      await expect.poll(() => held.handed.some((ops) => JSON.stringify(ops).includes('held?')), { timeout: 5000 }).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      // ...but the client has no answer while they are uncommitted, and no read sees them.
      expect(answered).toBe(false);
      expect(await predictions()).not.toContainEqual({ question: 'held?' });
    } finally {
      held.release();
    }
    const res = await pending;
    expect(res.status).toBe(200);
    const { prediction_id } = (await res.json()) as { prediction_id: string };
    expect((await t.alice.client.predictionRead({ ...f.path, prediction_id })).inputs).toEqual({ question: 'held?' });
  });

  it('answer the commit’s error instead when they cannot commit, and write nothing', async () => {
    const before = await predictions();
    const db = (t.server.store as unknown as { db: { writer: Database } }).db.writer;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let res: Response;
    try {
      res = await predict('x'.repeat(2_000_000));
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
    expect(res.status).toBe(507);
    expect(((await res.json()) as { reason: string }).reason).toMatch(/out of storage space/);
    expect(await predictions()).toEqual(before);
    // The thread and the writer go on: the next prediction lands.
    expect((await predict('after')).status).toBe(200);
    expect(await predictions()).toEqual([...before, { question: 'after' }]);
  });
});
