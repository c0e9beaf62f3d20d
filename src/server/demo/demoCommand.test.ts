/**
 * `weft demo` against a running server whose admin password the demo does not know: it makes a
 * temporary key in the data directory, loads everything over HTTP, and the server's own reads
 * (thread statistics, the stats rollups, runs, queues, feedback) see it; the key is revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../testing/serverSuite.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { demoCommand } from './demoCommand.js';

const PROJECT = 'demo/agents';
const path = { entity: 'demo', project: 'agents' };
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  const saved = process.env.WEFT_ADMIN_PASSWORD;
  delete process.env.WEFT_ADMIN_PASSWORD;
  const log = console.log;
  console.log = () => {};
  try {
    await demoCommand(['--url', t.url, '--data-dir', t.dataDir, '--traces', '60', '--project', PROJECT]);
  } finally {
    console.log = log;
    if (saved !== undefined) process.env.WEFT_ADMIN_PASSWORD = saved;
  }
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('weft demo without a password', () => {
  it('loads traces the running server counts in its thread statistics and stats rollups', async () => {
    const { count } = await t.admin.callsQueryStats({ project_id: PROJECT, filter: { trace_roots_only: true } });
    // 60 agent traces and the 3 evaluation runs' Evaluation.evaluate roots.
    expect(count).toBe(63);
    const threads = await collect(t.admin.threadsStreamQuery({ project_id: PROJECT }));
    expect(threads.length).toBeGreaterThan(0);
    expect(threads.every((th) => th.turn_count >= 3 && th.turn_count <= 4)).toBe(true);
    const stats = await t.admin.callStats({
      project_id: PROJECT,
      start: new Date(Date.now() - 8 * 24 * 3600_000).toISOString(),
      granularity: 86_400,
      call_metrics: [{ metric: 'call_count', aggregations: ['sum'] }],
    });
    const total = stats.call_buckets.reduce((sum, b) => sum + Number(b.sum_call_count ?? 0), 0);
    const { count: all } = await t.admin.callsQueryStats({ project_id: PROJECT });
    expect(total).toBe(all);
  });

  it('answers every follow-up turn with its own answer, never a repeated question', async () => {
    const [thread] = await collect(t.admin.threadsStreamQuery({ project_id: PROJECT, limit: 1 }));
    const turns = await collect(
      t.admin.callsStreamQuery({
        project_id: PROJECT,
        filter: { thread_ids: [thread!.thread_id], trace_roots_only: true },
        sort_by: [{ field: 'started_at', direction: 'asc' }],
      }),
    );
    const questions = turns.map((c) => JSON.stringify(c.inputs));
    expect(new Set(questions).size).toBe(turns.length);
  });

  it('adds an evaluation run by three models with three scorers', async () => {
    const runs = await collect(t.admin.evaluationRunList(path));
    expect(runs).toHaveLength(3);
    expect(new Set(runs.map((r) => r.evaluation)).size).toBe(1);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const [evaluation] = await collect(t.admin.evaluationList(path));
    expect(evaluation!.scorers).toHaveLength(3);
    expect((await collect(t.admin.modelList(path))).length).toBe(3);
    expect((await collect(t.admin.datasetList(path))).map((d) => d.object_id)).toEqual(['support-questions']);
  });

  it('adds a leaderboard of the evaluation and a saved Calls view', async () => {
    const { objs } = await t.admin.objsQuery({
      project_id: PROJECT,
      filter: { base_object_classes: ['Leaderboard', 'SavedView'], latest_only: true },
    });
    expect(objs.map((o) => [o.object_id, o.base_object_class])).toEqual([
      ['support-leaderboard', 'Leaderboard'],
      ['view-traces-failed-traces', 'SavedView'],
    ]);
    const board = objs[0]!.val as { columns: { scorer_name: string; evaluation_object_ref: string }[] };
    expect(board.columns.map((c) => c.scorer_name)).toEqual(['correct', 'helpfulness', 'conciseness']);
    const [run] = await collect(t.admin.evaluationRunList(path));
    expect(board.columns[0]!.evaluation_object_ref).toBe(run!.evaluation);
  });

  it('adds a prompt with three versions, the last aliased production', async () => {
    const { objs } = await t.admin.objsQuery({ project_id: PROJECT, filter: { base_object_classes: ['Prompt'] } });
    expect(objs.map((o) => [o.object_id, o.leaf_object_class, o.version_index])).toEqual([
      ['support-prompt', 'MessagesPrompt', 0],
      ['support-prompt', 'MessagesPrompt', 1],
      ['support-prompt', 'MessagesPrompt', 2],
    ]);
    const { obj } = await t.admin.objRead({ project_id: PROJECT, object_id: 'support-prompt', digest: 'production' });
    expect(obj.version_index).toBe(2);
  });

  it('adds two queues with typed questions and answers, and reactions and notes', async () => {
    const queues = await collect(t.admin.annotationQueuesQuery({ project_id: PROJECT }));
    expect(queues.map((q) => q.name).sort()).toEqual(['Answer quality', 'Conversation review']);
    const summary = await t.admin.annotationQueueSummary({
      project_id: PROJECT,
      queue_id: queues.find((q) => q.name === 'Answer quality')!.id,
    });
    expect(summary.items_by_state.completed).toBe(8);
    expect(summary.items_by_state.skipped).toBe(1);
    expect(summary.questions.map((q) => q.answered)).toEqual([8, 8, 8, expect.any(Number)]);
    const threadQueue = queues.find((q) => q.name === 'Conversation review')!;
    const { items } = await t.admin.annotationQueueItemsQuery({ project_id: PROJECT, queue_id: threadQueue.id });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.thread_id !== null)).toBe(true);
    const { result } = await t.admin.feedbackQuery({ project_id: PROJECT, fields: ['feedback_type'] });
    const types = result.map((r) => r.feedback_type as string);
    expect(types.filter((x) => x === 'wandb.reaction.1')).toHaveLength(14);
    expect(types.filter((x) => x === 'wandb.note.1').length).toBeGreaterThan(0);
  });

  it('adds a disabled alert rule in Slack format, its placeholder webhook masked', async () => {
    const { rules } = await t.admin.alertsList({ project_id: PROJECT });
    expect(rules).toMatchObject([
      { name: 'Agent error rate', metric: 'error_rate', enabled: false, format: 'slack', webhook_mask: 'https://hooks.slack.com/…' },
    ]);
  });

  it('revokes the temporary key it made', async () => {
    const keys = await t.server.store.accounts.listApiKeys('admin');
    const demo = keys.filter((k) => k.name === 'weft demo (temporary)');
    expect(demo).toHaveLength(1);
    expect(demo[0]!.revokedAt).not.toBeNull();
  });
});
