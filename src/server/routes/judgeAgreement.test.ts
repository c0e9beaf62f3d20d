/**
 * `/weft/judges/agreement` over HTTP on every store: a judge's answers beside two reviewers'
 * on four calls, against figures worked by hand (docs/judge-agreement.md "Worked example").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftClient } from '../../client/index.js';
import { JudgeAgreementRes } from '../../contract/agreement.js';
import { hashSecret } from '../auth/secrets.js';
import { TEST_SCRYPT } from '../testing/testPasswords.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const CALLS = ['c1', 'c2', 'c3', 'c4'];

for (const backend of testBackends()) {
  describe(`judge agreement (${backend.name})`, () => {
    let t: TestServer;
    let P: string;
    let alice: WeftClient;
    let carol: WeftClient;

    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      P = `${t.alice.entity}/calibration`;
      alice = t.alice.client;
      await t.server.store.accounts.upsertUser({
        username: 'carol',
        entities: [t.alice.entity],
        passwordHash: await hashSecret('carol-pw', TEST_SCRYPT),
      });
      carol = t.clientAs({ username: 'carol', password: 'carol-pw' });
      await alice.callUpsertBatch({
        batch: CALLS.map((id) => ({
          mode: 'start' as const,
          req: { start: { project_id: P, id, op_name: 'answer', started_at: '2026-01-01T00:00:00Z', attributes: {}, inputs: { q: id } } },
        })),
      });
    });
    afterAll(() => t?.close());

    const ref = (id: string) => `weave:///${P}/call/${id}`;
    const judge = (id: string, output: unknown, name = 'judge') =>
      alice.feedbackCreate({
        project_id: P,
        weave_ref: ref(id),
        feedback_type: `wandb.runnable.${name}`,
        runnable_ref: `weave:///${P}/object/${name}:v1`,
        payload: { output },
      });
    const specs = new Map<string, string>();
    const answer = async (client: WeftClient, id: string, question: string, value: unknown) => {
      if (!specs.has(question)) {
        const val = {
          _type: 'AnnotationSpec',
          _class_name: 'AnnotationSpec',
          _bases: ['Object', 'BaseModel'],
          name: question,
          field_schema: { type: 'boolean' },
        };
        const { digest } = await alice.objCreate({ obj: { project_id: P, object_id: question, val } });
        specs.set(question, `weave:///${P}/object/${question}:${digest}`);
      }
      const annotation_ref = specs.get(question)!;
      return client.feedbackCreate({
        project_id: P,
        weave_ref: ref(id),
        feedback_type: `wandb.annotation.${question}`,
        annotation_ref,
        payload: { value },
      });
    };

    it('pairs each output field with the question of its name and reports κ, α, the matrix and the disagreements', async () => {
      await judge('c1', { correct: false, reason: 'superseded by the newer answer below' });
      const verdicts: [string, boolean][] = [
        ['c1', true],
        ['c2', true],
        ['c3', false],
        ['c4', false],
      ];
      for (const [id, correct] of verdicts) await judge(id, { correct, reason: `because ${id}` });
      for (const [id, v] of [
        ['c1', true],
        ['c2', false],
        ['c3', false],
        ['c4', false],
      ] as const)
        await answer(alice, id, 'correct', v);
      for (const [id, v] of [
        ['c1', true],
        ['c2', true],
        ['c3', true],
      ] as const)
        await answer(carol, id, 'correct', v);
      // A scalar output pairs with the question named after the scorer; "reason" has no question.
      await judge('c1', true, 'polite');
      await answer(alice, 'c1', 'polite', true);

      const res = JudgeAgreementRes.parse(await alice.judgeAgreement({ project_id: P }));
      expect(res.truncated).toBe(false);
      expect(res.judges.map((j) => [j.scorer, j.field, j.question])).toEqual([
        ['judge', 'correct', 'correct'],
        ['polite', null, 'polite'],
      ]);
      const [correct, polite] = res.judges;
      // 7 pairs, 5 agreeing; both sides say true 4 times of 7: pₑ 25/49, κ (35 − 25)/(49 − 25).
      expect(correct).toMatchObject({
        calls: 4,
        pairs: 7,
        reviewers: 2,
        runnable_ref: `weave:///${P}/object/judge:v1`,
        annotation_ref: specs.get('correct'),
      });
      expect(correct!.percent_agreement).toBeCloseTo(5 / 7, 12);
      expect(correct!.kappa).toBeCloseTo(10 / 24, 12);
      // Coincidences o(t,t) 4, o(t,f) = o(f,t) 2, o(f,f) 3; n_t 6, n_f 5: α = 1 − 10·4/60.
      expect(correct!.alpha).toBeCloseTo(1 / 3, 12);
      expect(correct!.confusion).toEqual({
        labels: ['false', 'true'],
        counts: [
          [2, 1],
          [1, 3],
        ],
      });
      expect(correct!.disagreements).toEqual([
        { call_id: 'c3', scorer: false, reviewers: [{ annotator: 'carol', value: true }] },
        { call_id: 'c2', scorer: true, reviewers: [{ annotator: 'alice', value: false }] },
      ]);
      expect(polite).toMatchObject({ calls: 1, pairs: 1, percent_agreement: 1, kappa: null, alpha: null, disagreements: [] });
    });

    it('answers an empty list for a project without human answers, and refuses another tenant', async () => {
      expect(await alice.judgeAgreement({ project_id: `${t.alice.entity}/nothing-here` })).toEqual({ judges: [], truncated: false });
      const res = await t.bob.client.judgeAgreement({ project_id: P }).catch((err: { status?: number }) => err);
      expect((res as { status?: number }).status).toBe(403);
    });
  });
}
