/**
 * Routes current clients call beyond the interface document (clients.md §4), with the request
 * and response models of the newest reference, sent as the Python client sends them.
 */
import { describe, expect, it } from 'vitest';
import { projectNames, useTestServer } from '../testing/serverSuite.js';
import { pyCallsQueryReq, pyCompletedCall, pyEndedCall, pyPost, pyStartedCall } from '../testing/pythonClient.js';
import type { PyJson } from '../testing/pythonClient.js';

const t = useTestServer();
const nextProject = projectNames('newer');
const project = () => `alice-co/${nextProject()}`;
const bobProject = () => `bob-co/${nextProject()}`;

describe('POST /v2/{entity}/{project}/calls/complete', () => {
  it('stores finished calls whole, read back like calls sent in two parts, with the caller as wb_user_id', async () => {
    const P = project();
    const res = await pyPost(t, `/v2/${P}/calls/complete`, {
      batch: [
        pyCompletedCall({
          project_id: P,
          id: 'root',
          trace_id: 'tr',
          op_name: 'weave:///alice-co/x/op/agent:abc',
          inputs: { q: 'hi' },
          output: { a: 'there' },
          summary: { usage: { m: { prompt_tokens: 3, completion_tokens: 4 } } },
          wb_user_id: 'somebody-else',
        }),
        pyCompletedCall({
          project_id: P,
          id: 'child',
          trace_id: 'tr',
          parent_id: 'root',
          exception: 'boom',
          started_at: '2026-01-01T00:00:00.5Z',
        }),
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({});
    const calls = (await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P }))).body as Record<string, PyJson>[];
    expect(calls.map((c) => c.id)).toEqual(['root', 'child']);
    expect(calls[0]).toMatchObject({
      trace_id: 'tr',
      inputs: { q: 'hi' },
      output: { a: 'there' },
      ended_at: '2026-01-01T00:00:01Z',
      wb_user_id: 'alice',
      summary: { weave: { status: 'success', trace_name: 'agent' } },
    });
    expect(calls[1]).toMatchObject({ parent_id: 'root', exception: 'boom', summary: { weave: { status: 'error' } } });
  });

  it("answers 403 for another entity's project and 400 for a call outside the path's project, writing nothing", async () => {
    const P = project();
    const B = bobProject();
    expect(
      (await pyPost(t, `/v2/${B}/calls/complete`, { batch: [pyCompletedCall({ project_id: B, id: 'x', trace_id: 'x' })] })).status,
    ).toBe(403);
    // The path is alice's, the call bob's: still 403 (every named project is checked).
    expect(
      (await pyPost(t, `/v2/${P}/calls/complete`, { batch: [pyCompletedCall({ project_id: B, id: 'x', trace_id: 'x' })] })).status,
    ).toBe(403);
    const other = project();
    const mixed = await pyPost(t, `/v2/${P}/calls/complete`, {
      batch: [pyCompletedCall({ project_id: P, id: 'a', trace_id: 'a' }), pyCompletedCall({ project_id: other, id: 'b', trace_id: 'b' })],
    });
    expect(mixed.status).toBe(400);
    expect((await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P }))).body).toEqual([]);
    expect((await pyPost(t, `/v2/${P}/calls/complete`, { batch: [{ project_id: P }] })).status).toBe(422);
  });
});

describe('POST /v2/{entity}/{project}/call/start and call/end', () => {
  it('start a call that shows as running, then end it (the end carrying the newest extra fields)', async () => {
    const P = project();
    const start = await pyPost(t, `/v2/${P}/call/start`, {
      start: pyStartedCall({ project_id: P, id: 'eval', trace_id: 'tr-eval', op_name: 'Evaluation.evaluate' }),
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body).toEqual({ id: 'eval', trace_id: 'tr-eval' });
    const running = (await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P }))).body;
    expect(running[0].summary.weave.status).toBe('running');
    const end = await pyPost(t, `/v2/${P}/call/end`, {
      end: pyEndedCall({ project_id: P, id: 'eval', trace_id: 'tr-eval', is_eval: true, started_at: '2026-01-01T00:00:00Z', output: 1 }),
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body).toEqual({});
    const done = (await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P }))).body;
    expect(done[0]).toMatchObject({ output: 1, summary: { weave: { status: 'success', latency_ms: 1000 } } });
  });

  it('generates ids when the start has none, and checks access on the path project', async () => {
    const P = project();
    const start = await pyPost(t, `/v2/${P}/call/start`, { start: pyStartedCall({ project_id: P }) });
    expect(start.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const B = bobProject();
    expect((await pyPost(t, `/v2/${B}/call/start`, { start: pyStartedCall({ project_id: B }) })).status).toBe(403);
    expect((await pyPost(t, `/v2/${B}/call/end`, { end: pyEndedCall({ project_id: B, id: 'x' }) })).status).toBe(403);
  });
});

describe('POST /calls/query (legacy, non-streaming)', () => {
  it('answers {calls: [...]} with the stream query semantics', async () => {
    const P = project();
    await pyPost(t, `/v2/${P}/calls/complete`, {
      batch: ['a', 'b', 'c'].map((id, i) => pyCompletedCall({ project_id: P, id, trace_id: id, started_at: `2026-01-01T00:00:0${i}Z` })),
    });
    const res = await pyPost(
      t,
      '/calls/query',
      pyCallsQueryReq({ project_id: P, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 2 }),
    );
    expect(res.status).toBe(200);
    expect(res.body.calls.map((c: { id: string }) => c.id)).toEqual(['c', 'b']);
    expect((await pyPost(t, '/calls/query', pyCallsQueryReq({ project_id: bobProject() }))).status).toBe(403);
  });
});

describe('POST /files/stats and /project/stats', () => {
  it('report the bytes a project stores, per kind, and 0 for parts not asked for', async () => {
    const P = project();
    const file = new FormData();
    file.set('project_id', P);
    file.set('file', new Blob([new Uint8Array(1234)]), 'blob.bin');
    expect((await t.fetch('/file/create', { method: 'POST', body: file })).status).toBe(200);
    await t.alice.client.objCreate({ obj: { project_id: P, object_id: 'o', val: { a: 'x'.repeat(100) } } });
    await t.alice.client.tableCreate({ table: { project_id: P, rows: [{ r: 1 }, { r: 2 }] } });
    await pyPost(t, `/v2/${P}/calls/complete`, {
      batch: [pyCompletedCall({ project_id: P, id: 'c', trace_id: 'c', inputs: { q: 'hello' } })],
    });

    expect((await pyPost(t, '/files/stats', { project_id: P })).body).toEqual({ total_size_bytes: 1234 });
    const stats = await pyPost(t, '/project/stats', {
      project_id: P,
      include_trace_storage_size: true,
      include_object_storage_size: true,
      include_table_storage_size: true,
      include_file_storage_size: true,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.files_storage_size_bytes).toBe(1234);
    expect(stats.body.objects_storage_size_bytes).toBeGreaterThan(100);
    expect(stats.body.tables_storage_size_bytes).toBe('{"r":1}'.length * 2);
    // attributes {} + inputs {"q":"hello"} + summary {} as stored; no output, no exception.
    expect(stats.body.trace_storage_size_bytes).toBe('{}'.length + '{"q":"hello"}'.length + '{}'.length);
    const onlyFiles = await pyPost(t, '/project/stats', {
      project_id: P,
      include_trace_storage_size: false,
      include_object_storage_size: false,
      include_table_storage_size: false,
      include_file_storage_size: null,
    });
    expect(onlyFiles.body).toEqual({
      trace_storage_size_bytes: 0,
      objects_storage_size_bytes: 0,
      tables_storage_size_bytes: 0,
      files_storage_size_bytes: 1234,
    });
    expect((await pyPost(t, '/project/stats', { project_id: bobProject() })).status).toBe(403);
    expect((await pyPost(t, '/files/stats', { project_id: bobProject() })).status).toBe(403);
  });
});

describe('POST /feedback/aggregate', () => {
  it('counts feedback per time bucket and scorer, sparse, filtered by type prefix and scorer id', async () => {
    const P = project();
    const scorer = (name: string) => `weave:///${P}/op/${name}:abc123`;
    const rows = [
      { feedback_type: 'wandb.runnable.judge', runnable_ref: scorer('judge') },
      { feedback_type: 'wandb.runnable.judge', runnable_ref: scorer('judge') },
      { feedback_type: 'wandb.runnable.judge_v2', runnable_ref: scorer('judge_v2') },
      { feedback_type: 'custom.comment', runnable_ref: null },
    ];
    for (const [i, r] of rows.entries()) {
      await t.alice.client.feedbackCreate({
        project_id: P,
        weave_ref: `weave:///${P}/call/c${i}`,
        payload: { output: i },
        call_ref: r.runnable_ref ? `weave:///${P}/call/score${i}` : null,
        ...r,
      });
    }
    const now = Date.now();
    const base = { project_id: P, after_ms: now - 3600_000, before_ms: now + 3600_000 };
    const grouped = await pyPost(t, '/feedback/aggregate', { ...base, feedback_types: ['wandb.runnable.'], group_by: ['scorer_id'] });
    expect(grouped.status, JSON.stringify(grouped.body)).toBe(200);
    expect(grouped.body).toEqual({
      time_bucket_seconds: null,
      after_ms: base.after_ms,
      before_ms: base.before_ms,
      buckets: [
        {
          time_bucket_start_ms: null,
          group: { scorer_id: 'judge' },
          total_count: 2,
          scored_count: 0,
          tag_counts: {},
          rating_counts: {},
          rating_sums: {},
        },
        {
          time_bucket_start_ms: null,
          group: { scorer_id: 'judge_v2' },
          total_count: 1,
          scored_count: 0,
          tag_counts: {},
          rating_counts: {},
          rating_sums: {},
        },
      ],
    });
    // Exact scorer id, then a prefix with a trailing '*'.
    const exact = await pyPost(t, '/feedback/aggregate', { ...base, scorer_ids: ['judge'] });
    expect(exact.body.buckets.map((b: { total_count: number }) => b.total_count)).toEqual([2]);
    const prefix = await pyPost(t, '/feedback/aggregate', { ...base, scorer_ids: ['judge*'] });
    expect(prefix.body.buckets.map((b: { total_count: number }) => b.total_count)).toEqual([3]);
    // Hour buckets aligned to the epoch: every row falls in the current hour.
    const hourly = await pyPost(t, '/feedback/aggregate', { ...base, time_bucket_seconds: 3600 });
    expect(hourly.body.buckets).toHaveLength(1);
    expect(hourly.body.buckets[0].total_count).toBe(4);
    expect(hourly.body.buckets[0].time_bucket_start_ms % 3600_000).toBe(0);
  });

  it("counts the scorer tags and ratings feedback carries, filters on them and groups by the scored agent's span", async () => {
    const P = project();
    const monitor = (n: number, extra: Record<string, unknown>) =>
      pyPost(t, '/feedback/create', {
        project_id: P,
        weave_ref: `weave:///${P}/call/turn${n}`,
        feedback_type: 'wandb.runnable.tone-judge',
        runnable_ref: `weave:///${P}/object/tone-judge:abc123`,
        payload: { output: n },
        ...extra,
      });
    // As the Python SDK's FeedbackCreateReq sends them.
    const created = await monitor(1, {
      scorer_tags: ['toxic', 'rude'],
      scorer_tag_reasons: { toxic: 'insult' },
      scorer_tag_confidences: { toxic: 0.9 },
      scorer_ratings: { _rating_: 0.2, tone: 0.4 },
      span_agent_name: 'support-bot',
      span_agent_version: 'v1',
      span_status_code: 'OK',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await monitor(2, {
      scorer_tags: ['rude'],
      scorer_ratings: { _rating_: 0.8 },
      span_agent_name: 'support-bot',
      span_agent_version: 'v2',
    });
    await monitor(3, { span_agent_name: 'sales-bot' });
    await monitor(4, {});
    const now = Date.now();
    const base = { project_id: P, after_ms: now - 3600_000, before_ms: now + 3600_000 };
    const byAgent = await pyPost(t, '/feedback/aggregate', { ...base, group_by: ['span_agent_name'] });
    expect(byAgent.status, JSON.stringify(byAgent.body)).toBe(200);
    const unscored = (agent: string) => ({
      time_bucket_start_ms: null,
      group: { span_agent_name: agent },
      total_count: 1,
      scored_count: 0,
      tag_counts: {},
      rating_counts: {},
      rating_sums: {},
    });
    expect(byAgent.body.buckets).toEqual([
      unscored(''),
      unscored('sales-bot'),
      {
        time_bucket_start_ms: null,
        group: { span_agent_name: 'support-bot' },
        total_count: 2,
        scored_count: 2,
        tag_counts: { toxic: 1, rude: 2 },
        rating_counts: { _rating_: 2, tone: 1 },
        rating_sums: { _rating_: 1, tone: 0.4 },
      },
    ]);
    const totals = async (filters: Record<string, unknown>) =>
      (await pyPost(t, '/feedback/aggregate', { ...base, ...filters })).body.buckets.map((b: { total_count: number }) => b.total_count);
    expect(await totals({ tags: ['toxic'] })).toEqual([1]);
    expect(await totals({ tags: ['rude', 'nope'] })).toEqual([2]);
    expect(await totals({ rating_min: 0.5 })).toEqual([1]);
    expect(await totals({ rating_max: 0.5 })).toEqual([1]);
    expect(await totals({ span_agent_names: ['sales-bot'] })).toEqual([1]);
    const versions = await pyPost(t, '/feedback/aggregate', {
      ...base,
      span_agent_names: ['support-bot'],
      group_by: ['span_agent_version'],
    });
    expect(versions.body.buckets.map((b: { group: object }) => b.group)).toEqual([
      { span_agent_version: 'v1' },
      { span_agent_version: 'v2' },
    ]);
    // A row without a status groups under the reference's default, "UNSET".
    const byStatus = await pyPost(t, '/feedback/aggregate', { ...base, group_by: ['span_status_code'] });
    expect(byStatus.body.buckets.map((b: { group: { span_status_code: string } }) => b.group.span_status_code).sort()).toEqual([
      'OK',
      'UNSET',
    ]);
    // And /feedback/query returns what was sent, the defaults for a row without any (as the reference).
    const rows = (await pyPost(t, '/feedback/query', { project_id: P, sort_by: [{ field: 'weave_ref', direction: 'asc' }] })).body.result;
    expect(rows[0]).toMatchObject({ scorer_tags: ['toxic', 'rude'], scorer_tag_reasons: { toxic: 'insult' }, span_status_code: 'OK' });
    expect(rows[3]).toMatchObject({
      scorer_tags: [],
      scorer_ratings: {},
      span_agent_name: '',
      span_agent_version: '',
      span_status_code: 'UNSET',
    });
  });

  it('validates the window as the reference does, and checks project access', async () => {
    const P = project();
    const now = Date.now();
    expect((await pyPost(t, '/feedback/aggregate', { project_id: P, after_ms: now, before_ms: now })).status).toBe(422);
    // More than 256 buckets, and a 40-day range that is not a project-wide total.
    expect(
      (await pyPost(t, '/feedback/aggregate', { project_id: P, after_ms: 0, before_ms: 300_000, time_bucket_seconds: 1 })).status,
    ).toBe(422);
    const long = { project_id: P, after_ms: now - 40 * 86_400_000, before_ms: now };
    expect((await pyPost(t, '/feedback/aggregate', { ...long, group_by: ['scorer_id'] })).status).toBe(422);
    expect((await pyPost(t, '/feedback/aggregate', long)).status).toBe(200);
    expect((await pyPost(t, '/feedback/aggregate', { ...long, project_id: bobProject() })).status).toBe(403);
  });
});
