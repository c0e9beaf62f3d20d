/**
 * Alert rules over real HTTP, on every backend, against a local webhook receiver
 * (docs/alerts.md): a rule fires once when the error rate crosses its threshold — however many
 * sweeps queue the minute's evaluation — resolves when it drops, sends Slack's `{"text"}` when
 * asked, records but does not send while snoozed, and never answers or stores its URL in the clear.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSweeper } from '../jobs/AlertSweeper.js';
import { alertJobId, MINUTE_MICROS } from '../domain/alerts/alertEvaluation.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { waitFor } from '../testing/waitFor.js';

interface Received {
  path: string;
  body: Record<string, unknown>;
}

/**
 * A webhook receiver on 127.0.0.1 that keeps what it was sent. A path under /flaky/ is answered
 * 503 the first time it is posted to (kept apart, in `refused`).
 */
async function startReceiver(): Promise<{ server: Server; url: string; got: Received[]; refused: Received[] }> {
  const got: Received[] = [];
  const refused: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const received = { path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> };
      if (received.path.startsWith('/flaky/') && !refused.some((r) => r.path === received.path)) {
        refused.push(received);
        res.writeHead(503).end('try again');
        return;
      }
      got.push(received);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, refused };
}

/** A Slack-like secret in the path: it must never come back. */
const TOKEN = 'T000-B000-XXXXsecretXXXX';
/** A minute boundary; the service clock starts here and moves by whole minutes. */
const T0 = Date.UTC(2026, 0, 5, 12, 0) * 1000;

for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => {
    let t: TestServer;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let now = T0;
    let n = 0;
    beforeAll(async () => {
      receiver = await startReceiver();
      t = await startTestServer({
        env: { ...backend.serverEnv, WEFT_OUTBOUND_ALLOW: '127.0.0.1' },
        clock: { nowMicros: () => now },
      });
    });
    afterAll(async () => {
      await t.close();
      await new Promise((r) => receiver.server.close(r));
    });

    /** Calls that started a minute before the clock: `failed` of them failed. */
    async function logCalls(project: string, total: number, failed: number): Promise<void> {
      const batch: Parameters<TestServer['alice']['client']['callUpsertBatch']>[0]['batch'] = [];
      for (let i = 0; i < total; i++) {
        const id = `c${++n}`;
        const started = new Date((now - MINUTE_MICROS) / 1000).toISOString();
        const ended = new Date((now - MINUTE_MICROS) / 1000 + 200).toISOString();
        batch.push({
          mode: 'start',
          req: { start: { project_id: project, id, trace_id: `t-${id}`, op_name: 'llm', started_at: started, attributes: {}, inputs: {} } },
        });
        batch.push({
          mode: 'end',
          req: { end: { project_id: project, id, ended_at: ended, summary: {}, ...(i < failed ? { exception: 'boom' } : {}) } },
        });
      }
      await t.alice.client.callUpsertBatch({ batch });
    }

    /** Moves the clock a minute on, sweeps it (from `sweeps` replicas) and waits for the rule's evaluation. */
    async function evaluate(ruleId: string, sweeps = 1): Promise<void> {
      now += MINUTE_MICROS;
      const minute = Math.floor(now / MINUTE_MICROS);
      for (let i = 0; i < sweeps; i++) {
        // Each sweeper stands for a replica: its own sweep of the same minute, the same job store.
        const sweeper = new AlertSweeper({
          store: t.server.store,
          clock: { nowMicros: () => now },
          log: t.server.log,
          jobs: t.server.jobs,
        });
        await sweeper.sweepNow();
      }
      await waitFor(
        () => t.server.store.jobs.getJob({ projectId: project, id: alertJobId(ruleId, minute) }),
        (j) => j?.status === 'succeeded' || j?.status === 'failed',
      );
      // And the other rules' jobs of the sweep: the next minute on the clock would make a
      // running one's heartbeat stale, and its takeover would evaluate (and deliver) it again.
      await waitFor(
        () => t.server.store.jobs.listJobs({ projectId: project, kind: 'alert_evaluate', limit: 1000 }),
        (jobs) => jobs.every((j) => j.status !== 'queued' && j.status !== 'running'),
      );
    }

    let project = '';
    /** A webhook path of its own for each backend's run (the receiver is shared by name). */
    const rulePath = () => `${backend.name}-${++n}`;
    /** What the receiver got about one rule (the server's own timer sweeps the same minutes: counted by rule, not by time). */
    const about = (ruleId: string) => receiver.got.filter((r) => (r.body.rule as { id?: string } | undefined)?.id === ruleId);
    const aboutText = (name: string) => receiver.got.filter((r) => String(r.body.text).includes(` ${name} (`));
    async function createRule(extra: Record<string, unknown> = {}) {
      const { rule } = await t.admin.alertCreate({
        project_id: project,
        name: 'errors',
        metric: 'error_rate',
        comparison: 'above',
        threshold: 0.5,
        window_minutes: 5,
        webhook_url: `${receiver.url}/hooks/${TOKEN}`,
        ...extra,
      } as Parameters<TestServer['admin']['alertCreate']>[0]);
      return rule;
    }

    it('fires once when the error rate crosses the threshold, even when two replicas sweep, and resolves', async () => {
      project = `${t.alice.entity}/alerts-fire`;
      const rule = await createRule();
      expect(rule.webhook_mask).toBe(`${receiver.url}/…`);
      await logCalls(project, 4, 3);
      await evaluate(rule.id, 2);
      const fired = about(rule.id);
      expect(fired).toHaveLength(1);
      // Both sweeps queued the same job: one evaluation of this rule for this minute.
      const minute = Math.floor(now / MINUTE_MICROS);
      const jobs = await t.server.store.jobs.listJobs({ projectId: project, kind: 'alert_evaluate', limit: 100 });
      expect(jobs.filter((j) => j.payload.rule_id === rule.id && j.payload.minute === minute)).toHaveLength(1);
      expect(fired[0]!.path).toBe(`/hooks/${TOKEN}`);
      expect(fired[0]!.body).toMatchObject({ state: 'firing', value: 0.75, test: false, rule: { id: rule.id, threshold: 0.5 } });
      // Still above: no second delivery.
      await evaluate(rule.id);
      expect(about(rule.id)).toHaveLength(1);

      // Mostly successes now: 3 of 24 failed.
      await logCalls(project, 20, 0);
      await evaluate(rule.id);
      expect(about(rule.id)).toHaveLength(2);
      expect(about(rule.id)[1]!.body).toMatchObject({ state: 'resolved', value: 3 / 24 });

      const { events } = await t.alice.client.alertEvents({ project_id: project, rule_id: rule.id });
      expect(events.map((e) => [e.state, e.delivery])).toEqual([
        ['resolved', 'delivered'],
        ['firing', 'delivered'],
      ]);
      const { rules } = await t.alice.client.alertsList({ project_id: project });
      expect(rules).toMatchObject([{ id: rule.id, state: 'ok', last_event: { state: 'resolved' } }]);
    });

    it('fires on p95 latency of one op only', async () => {
      project = `${t.alice.entity}/alerts-latency`;
      // Every call of logCalls lasts 200 ms; the rule watches another op, then this one.
      const other = await createRule({ name: 'other op slow', metric: 'latency_p95_ms', threshold: 150, op_name: 'tool' });
      const llm = await createRule({ name: 'llm slow', metric: 'latency_p95_ms', threshold: 150, op_name: 'llm' });
      await logCalls(project, 3, 0);
      await evaluate(other.id);
      await evaluate(llm.id);
      expect(about(other.id)).toHaveLength(0);
      expect(about(llm.id).map((r) => r.body)).toMatchObject([{ state: 'firing', value: 200, rule: { op_name: 'llm' } }]);
    });

    it("fires when a monitor's score mean drops below the threshold", async () => {
      project = `${t.alice.entity}/alerts-score`;
      const rule = await createRule({
        name: 'quality',
        metric: 'score_mean',
        comparison: 'below',
        threshold: 0.5,
        scorer: 'quality',
        field_path: 'output.score',
      });
      const score = (id: string, feedbackType: string, output: unknown) =>
        t.alice.client.feedbackCreate({
          project_id: project,
          weave_ref: `weave:///${project}/call/${id}`,
          feedback_type: feedbackType,
          runnable_ref: `weave:///${project}/object/${feedbackType.split('.').pop()}:v1`,
          payload: { output },
        });
      await score('a', 'wandb.runnable.quality', { score: 0.2 });
      await score('b', 'wandb.runnable.quality', { score: 0.5 });
      // Another scorer's low scores do not count.
      await score('c', 'wandb.runnable.other', { score: 0 });
      await evaluate(rule.id);
      expect(about(rule.id).map((r) => r.body)).toMatchObject([{ state: 'firing', value: 0.35 }]);
    });

    it("fires when a judge's κ against the reviewers drops below the threshold", async () => {
      project = `${t.alice.entity}/alerts-kappa`;
      const rule = await createRule({
        name: 'judge drift',
        metric: 'judge_kappa',
        comparison: 'below',
        threshold: 0.5,
        scorer: 'grader',
        field_path: 'correct',
      });
      const val = {
        _type: 'AnnotationSpec',
        _class_name: 'AnnotationSpec',
        _bases: ['Object', 'BaseModel'],
        name: 'correct',
        field_schema: { type: 'boolean' },
      };
      const { digest } = await t.alice.client.objCreate({ obj: { project_id: project, object_id: 'correct', val } });
      // Judge t, t, f, f against reviewers t, f, t, f: half agree, as chance would, so κ = 0.
      for (const [id, judge, human] of [
        ['a', true, true],
        ['b', true, false],
        ['c', false, true],
        ['d', false, false],
      ] as const) {
        const weave_ref = `weave:///${project}/call/${id}`;
        await t.alice.client.feedbackCreate({
          project_id: project,
          weave_ref,
          feedback_type: 'wandb.runnable.grader',
          runnable_ref: `weave:///${project}/object/grader:v1`,
          payload: { output: { correct: judge } },
        });
        await t.alice.client.feedbackCreate({
          project_id: project,
          weave_ref,
          feedback_type: 'wandb.annotation.correct',
          annotation_ref: `weave:///${project}/object/correct:${digest}`,
          payload: { value: human },
        });
      }
      await evaluate(rule.id);
      expect(about(rule.id).map((r) => r.body)).toMatchObject([{ state: 'firing', value: 0 }]);
    });

    it('fires on the cost per day, priced by the project prices', async () => {
      project = `${t.alice.entity}/alerts-cost`;
      const rule = await createRule({ name: 'spend', metric: 'cost_per_day_usd', threshold: 10, window_minutes: 60 });
      await t.alice.client.costCreate({
        project_id: project,
        costs: { 'alert-model': { prompt_token_cost: 0.01, completion_token_cost: 0.02, effective_date: '2020-01-01T00:00:00Z' } },
      });
      const started = new Date((now - MINUTE_MICROS) / 1000).toISOString();
      const usage = { 'alert-model': { prompt_tokens: 60, completion_tokens: 20, requests: 1 } };
      await t.alice.client.callUpsertBatch({
        batch: [
          {
            mode: 'start',
            req: {
              start: {
                project_id: project,
                id: 'spend-1',
                trace_id: 't-spend',
                op_name: 'llm',
                started_at: started,
                attributes: {},
                inputs: {},
              },
            },
          },
          { mode: 'end', req: { end: { project_id: project, id: 'spend-1', ended_at: started, summary: { usage } } } },
        ],
      });
      await evaluate(rule.id);
      // $0.60 + $0.40 in the last hour: $24 a day.
      const [fired] = about(rule.id);
      expect(fired?.body).toMatchObject({ state: 'firing' });
      expect(fired?.body.value).toBeCloseTo(24, 9);
    });

    it('sends the Slack-compatible payload, from the test button too', async () => {
      project = `${t.alice.entity}/alerts-slack`;
      const rule = await createRule({ format: 'slack', name: 'slack errors' });
      expect(await t.alice.client.alertTest({ project_id: project, rule_id: rule.id })).toEqual({ ok: true, status: 200, error: null });
      expect(aboutText('slack errors').map((r) => Object.keys(r.body))).toEqual([['text']]);
      expect(aboutText('slack errors')[0]!.body.text).toMatch(/^\[TEST\] slack errors/);
      await logCalls(project, 2, 2);
      await evaluate(rule.id);
      expect(aboutText('slack errors')).toHaveLength(2);
      expect(aboutText('slack errors')[1]!.body).toEqual({ text: expect.stringMatching(/^\[FIRING\] slack errors .*error rate is 1 /) });
    });

    it('records but does not deliver while snoozed', async () => {
      project = `${t.alice.entity}/alerts-snooze`;
      const rule = await createRule();
      const { rule: snoozed } = await t.alice.client.alertUpdate({ project_id: project, rule_id: rule.id, snooze_minutes: 60 });
      expect(snoozed.snoozed_until).not.toBeNull();
      await logCalls(project, 2, 2);
      await evaluate(rule.id);
      expect(about(rule.id)).toHaveLength(0);
      const { events } = await t.alice.client.alertEvents({ project_id: project, rule_id: rule.id });
      expect(events.map((e) => [e.state, e.delivery])).toEqual([['firing', 'snoozed']]);
      expect((await t.alice.client.alertsList({ project_id: project })).rules[0]!.state).toBe('firing');
    });

    it('retries a delivery the webhook answered 503, and records the attempts', async () => {
      project = `${t.alice.entity}/alerts-retry`;
      const rule = await createRule({ webhook_url: `${receiver.url}/flaky/${rulePath()}` });
      await logCalls(project, 2, 2);
      await evaluate(rule.id);
      expect(receiver.refused.filter((r) => (r.body.rule as { id: string }).id === rule.id)).toHaveLength(1);
      expect(about(rule.id).map((r) => r.body.state)).toEqual(['firing']);
      const { events } = await t.alice.client.alertEvents({ project_id: project, rule_id: rule.id });
      expect(events.map((e) => [e.state, e.delivery, e.detail])).toEqual([['firing', 'delivered', '2 attempts']]);
    });

    it('never answers, stores in jobs or reports the webhook URL', async () => {
      project = `${t.alice.entity}/alerts-secret`;
      const rule = await createRule();
      // A receiver that is gone: the failure is reported without the URL.
      const { rule: moved } = await t.admin.alertUpdate({
        project_id: project,
        rule_id: rule.id,
        webhook_url: `http://127.0.0.1:1/hooks/${TOKEN}`,
      });
      const failed = await t.alice.client.alertTest({ project_id: project, rule_id: rule.id });
      expect(failed.ok).toBe(false);
      await logCalls(project, 1, 1);
      await evaluate(rule.id);
      const answers: unknown[] = [
        moved,
        failed,
        await t.alice.client.alertsList({ project_id: project }),
        await t.alice.client.alertEvents({ project_id: project }),
        await t.server.store.jobs.listJobs({ projectId: project, limit: 100 }),
        await t.server.store.alerts.listAlertRules(project),
      ];
      const audit = await t.server.store.audit.query({ entities: 'all', action: 'alert.changed', projectId: project }, 100);
      expect(audit.map((r) => r.details)).toMatchObject([
        { change: 'changed', webhook_set: true },
        { change: 'created', webhook_set: true },
      ]);
      answers.push(audit);
      expect(JSON.stringify(answers)).not.toContain(TOKEN);
      expect((await t.alice.client.alertEvents({ project_id: project })).events[0]).toMatchObject({ delivery: 'failed' });
    });

    it('refuses a score rule without its scorer, and lets only admins name an allowed address', async () => {
      project = `${t.alice.entity}/alerts-bad`;
      const bad = await t.fetch('/weft/alerts', {
        json: {
          project_id: project,
          name: 's',
          metric: 'score_mean',
          comparison: 'below',
          threshold: 0.5,
          window_minutes: 60,
          webhook_url: 'https://hooks.example.com/x',
        },
      });
      expect(bad.status).toBe(422);
      expect(await bad.text()).toContain('scorer');
      const local = await t.fetch('/weft/alerts', {
        json: {
          project_id: project,
          name: 's',
          metric: 'error_rate',
          comparison: 'above',
          threshold: 0.5,
          window_minutes: 60,
          webhook_url: `${receiver.url}/x`,
        },
      });
      expect(local.status).toBe(403);
    });
  });
}
