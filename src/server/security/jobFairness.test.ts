/**
 * Jobs are fair across tenants (docs/security/bounded-work.md), over real HTTP against a real
 * server on every backend in WEFT_TEST_STORES, with a slow OpenAI stand-in on 127.0.0.1: one
 * tenant's queue of long evaluations does not hold another tenant's job back, and a project's
 * queue is capped with a 429 that names the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../testing/llmFixture.js';
import { sendAsAlice } from '../testing/serverSuite.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer, type TestUser } from '../testing/testServer.js';
import { waitFor } from '../testing/waitFor.js';

for (const backend of testBackends()) {
  describe(`job fairness (${backend.name})`, () => {
    let fake: FakeOpenAi;
    let t: TestServer;
    beforeAll(async () => {
      fake = await startFakeOpenAi();
      t = await startTestServer({
        env: {
          ...backend.serverEnv,
          OPENAI_BASE_URL: fake.baseUrl,
          WEFT_OUTBOUND_ALLOW: '127.0.0.1',
          WEFT_JOB_CONCURRENCY: '2',
          WEFT_JOB_PROJECT_CONCURRENCY: '1',
          WEFT_JOB_PROJECT_QUEUE: '4',
          // Heartbeats every 500 ms, so a cancel reaches a running job at once.
          WEFT_JOB_STALE_MS: '2000',
        },
      });
    }, 150_000);
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    const jobs = async (user: TestUser, p: string) =>
      (
        await t
          .fetch(`/weft/jobs?project_id=${encodeURIComponent(p)}`, { headers: { authorization: user.authHeader } })
          .then((r) => r.json())
      ).jobs as { id: string; status: string }[];
    const evaluate = (user: TestUser, p: string, f: { evaluationRef: string; modelRef: string }) =>
      t.fetch('/evaluations/evaluate_model', {
        headers: { authorization: user.authHeader },
        json: { project_id: p, evaluation_ref: f.evaluationRef, model_ref: f.modelRef },
      });
    /** Cancels the project's unfinished jobs (a cancel aborts their upstream requests). */
    const cancelAll = async (user: TestUser, p: string) => {
      for (const j of await jobs(user, p)) {
        if (j.status === 'queued' || j.status === 'running') await user.client.jobCancel({ project_id: p, job_id: j.id });
      }
    };

    it("a second tenant's job runs while the first tenant's long jobs are queued", async () => {
      const slow = 'alice-co/long-evals';
      const quick = 'bob-co/quick-eval';
      // Each of alice's evaluations waits 120 s on its model: far longer than this test may take.
      const a = await publishLlmEvaluation(t.alice.client, slow, { model: 'slow-120000', rows: [{ question: 'q' }] });
      for (let i = 0; i < 3; i++) expect((await evaluate(t.alice, slow, a)).status).toBe(200);
      const b = await publishLlmEvaluation(t.bob.client, quick, { model: 'gpt-4o-mini', rows: [{ question: 'q' }] });
      const res = await evaluate(t.bob, quick, b);
      expect(res.status).toBe(200);
      try {
        const [bobs] = await waitFor(
          () => jobs(t.bob, quick),
          (js) => js[0]?.status === 'succeeded' || js[0]?.status === 'failed',
          // Up to a minute: a loaded ClickHouse engine answers slowly.
          1200,
        );
        expect(bobs!.status).toBe('succeeded');
        // Meanwhile alice's first job runs and the others wait their turn.
        const alices = await jobs(t.alice, slow);
        expect(alices.map((j) => j.status).sort()).toEqual(['queued', 'queued', 'running']);
      } finally {
        await cancelAll(t.alice, slow);
      }
    }, 150_000);

    it('refuses a job past WEFT_JOB_PROJECT_QUEUE with 429 naming it; other projects are not affected', async () => {
      const p = 'alice-co/full-queue';
      const f = await publishLlmEvaluation(t.alice.client, p, { model: 'slow-120000', rows: [{ question: 'q' }] });
      try {
        for (let i = 0; i < 4; i++) expect((await evaluate(t.alice, p, f)).status).toBe(200);
        const refused = await evaluate(t.alice, p, f);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
        expect((await refused.json()).reason).toMatch(
          /already has 4 background jobs queued or running; the limit is 4 \(WEFT_JOB_PROJECT_QUEUE\)/,
        );
        expect(await jobs(t.alice, p)).toHaveLength(4);
        const other = 'alice-co/other-queue';
        const g = await publishLlmEvaluation(t.alice.client, other, { model: 'gpt-4o-mini', rows: [{ question: 'q' }] });
        expect((await evaluate(t.alice, other, g)).status).toBe(200);
      } finally {
        await cancelAll(t.alice, p);
      }
      // Cancelled jobs no longer count: the project may queue again.
      expect(
        (
          await sendAsAlice(t)('/evaluations/evaluate_model', {
            json: { project_id: p, evaluation_ref: f.evaluationRef, model_ref: f.modelRef },
          })
        ).status,
      ).toBe(200);
      await cancelAll(t.alice, p);
    }, 150_000);
  });
}
