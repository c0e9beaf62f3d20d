/**
 * The call endpoints over real HTTP against a temporary SQLite file (docs/api/core.md §3.2):
 * happy paths, the derived `summary.weave`, end-before-start merging, soft delete of
 * descendants, JSON-lines framing and the 422 shapes of each endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

let projectSeq = 0;
/** A fresh project in alice's entity, so tests do not see each other's calls. */
const newProject = (name = 'p') => `${t.alice.entity}/${name}-${++projectSeq}`;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type StartFields = Record<string, unknown>;
/** A minimal valid start body, with overrides. */
const startOf = (project_id: string, id: string, extra: StartFields = {}) => ({
  project_id,
  id,
  op_name: 'op',
  started_at: '2024-01-01T00:00:00Z',
  attributes: {},
  inputs: {},
  ...extra,
});
const endOf = (project_id: string, id: string, extra: StartFields = {}) => ({
  project_id,
  id,
  ended_at: '2024-01-01T00:00:01Z',
  summary: {},
  ...extra,
});

async function start(project_id: string, id: string, extra: StartFields = {}) {
  const res = await t.fetch('/call/start', { json: { start: startOf(project_id, id, extra) } });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; trace_id: string };
}
async function end(project_id: string, id: string, extra: StartFields = {}) {
  const res = await t.fetch('/call/end', { json: { end: endOf(project_id, id, extra) } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
}
async function read(project_id: string, id: string, extra: Record<string, unknown> = {}): Promise<CallSchema | null> {
  const res = await t.fetch('/call/read', { json: { project_id, id, ...extra } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { call: CallSchema | null }).call;
}
async function query(body: Record<string, unknown>): Promise<CallSchema[]> {
  const out: CallSchema[] = [];
  for await (const c of t.alice.client.callsStreamQuery(body as { project_id: string })) out.push(c);
  return out;
}
async function count(body: Record<string, unknown>): Promise<number> {
  const res = await t.fetch('/calls/query_stats', { json: body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { count: number }).count;
}
/** POSTs and returns status + parsed body (for error shapes). */
async function post(path: string, json: unknown): Promise<{ status: number; body: any }> {
  const res = await t.fetch(path, { json });
  return { status: res.status, body: await res.json() };
}

describe('POST /call/start', () => {
  it('stores every start field and reads it back as a running call', async () => {
    const project_id = newProject();
    const res = await t.alice.client.callStart({
      start: {
        project_id,
        id: 'call-1',
        trace_id: 'trace-1',
        parent_id: 'parent-0',
        thread_id: 'thread-1',
        turn_id: 'turn-1',
        op_name: 'chat',
        display_name: 'Chat turn',
        started_at: '2024-01-02T03:04:05.123Z',
        attributes: { env: 'test', nested: { a: [1, 2] } },
        inputs: { q: 'hi', n: 1.5, list: [true, null] },
        wb_run_id: 'run-1',
        wb_run_step: 7,
      },
    });
    expect(res).toEqual({ id: 'call-1', trace_id: 'trace-1' });
    const call = await read(project_id, 'call-1');
    expect(call).toEqual({
      id: 'call-1',
      project_id,
      op_name: 'chat',
      display_name: 'Chat turn',
      trace_id: 'trace-1',
      parent_id: 'parent-0',
      thread_id: 'thread-1',
      turn_id: 'turn-1',
      started_at: '2024-01-02T03:04:05.123000Z',
      ended_at: null,
      attributes: { env: 'test', nested: { a: [1, 2] } },
      inputs: { q: 'hi', n: 1.5, list: [true, null] },
      output: null,
      exception: null,
      summary: { weave: { status: 'running', display_name: 'Chat turn' } },
      wb_user_id: 'alice',
      wb_run_id: 'run-1',
      wb_run_step: 7,
      wb_run_step_end: null,
      deleted_at: null,
    });
  });

  it('generates UUIDv7 call and trace ids when they are absent or null', async () => {
    const project_id = newProject();
    const a = await t.alice.client.callStart({ start: { project_id, op_name: 'x', started_at: '2024-01-01T00:00:00Z' } });
    const b = await post('/call/start', { start: { ...startOf(project_id, 'ignored'), id: null, trace_id: null } });
    expect(b.status).toBe(200);
    for (const r of [a, b.body as { id: string; trace_id: string }]) {
      expect(r.id).toMatch(UUID_V7);
      expect(r.trace_id).toMatch(UUID_V7);
      expect(r.id).not.toBe(r.trace_id);
      expect((await read(project_id, r.id))?.trace_id).toBe(r.trace_id);
    }
    expect(a.id).not.toBe(b.body.id);
  });

  it('sets wb_user_id from the credentials, not from the body', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { wb_user_id: 'mallory' });
    expect((await read(project_id, 'c'))?.wb_user_id).toBe('alice');
  });

  it('treats null attributes and inputs as absent ({})', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { attributes: null, inputs: null, display_name: null, parent_id: null, otel_dump: null });
    const call = await read(project_id, 'c');
    expect(call?.attributes).toEqual({});
    expect(call?.inputs).toEqual({});
    expect(call?.parent_id).toBeNull();
  });

  it('accepts any ISO 8601 datetime and answers in UTC, pydantic style', async () => {
    const project_id = newProject();
    await start(project_id, 'offset', { started_at: '2024-01-01T02:00:00+02:00' });
    await start(project_id, 'naive', { started_at: '2024-03-04T05:06:07.000001' });
    await start(project_id, 'whole', { started_at: '2024-03-04T05:06:07.000Z' });
    expect((await read(project_id, 'offset'))?.started_at).toBe('2024-01-01T00:00:00Z');
    expect((await read(project_id, 'naive'))?.started_at).toBe('2024-03-04T05:06:07.000001Z');
    expect((await read(project_id, 'whole'))?.started_at).toBe('2024-03-04T05:06:07Z');
  });

  it('returns an empty display_name as null and names the trace after the op', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { display_name: '', op_name: 'plain_op' });
    const call = await read(project_id, 'c');
    expect(call?.display_name).toBeNull();
    expect(call?.summary).toEqual({ weave: { status: 'running', trace_name: 'plain_op' } });
  });

  it('uses the name inside an op ref as trace_name', async () => {
    const project_id = newProject();
    const opRef = `weave:///${project_id}/op/summarize:AbC123xyz`;
    await start(project_id, 'c', { op_name: opRef });
    const call = await read(project_id, 'c');
    expect(call?.op_name).toBe(opRef);
    expect((call?.summary as { weave: { trace_name: string } }).weave.trace_name).toBe('summarize');
  });

  it('accepts an op ref whose name holds a malformed percent escape', async () => {
    const project_id = newProject();
    const opRef = `weave:///${project_id}/op/bad%zz:abc`;
    const res = await post('/call/start', { start: startOf(project_id, 'c', { op_name: opRef }) });
    expect(res.status).toBe(200);
    const call = await read(project_id, 'c');
    expect(call?.op_name).toBe(opRef);
    expect((call?.summary as { weave: { trace_name: string } }).weave.trace_name).toMatch(/^bad/);
  });

  it('422s a start without op_name, with the FastAPI loc', async () => {
    const project_id = newProject();
    const { op_name: _omit, ...noOp } = startOf(project_id, 'c');
    const res = await post('/call/start', { start: noOp });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'start', 'op_name'], type: 'missing' }));
    expect(await read(project_id, 'c')).toBeNull();
  });

  it('422s a body without start', async () => {
    const res = await post('/call/start', {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [expect.objectContaining({ loc: ['body', 'start'], type: 'missing', msg: expect.any(String) })] });
  });

  it('422s a malformed started_at and a display_name over 1024 chars', async () => {
    const project_id = newProject();
    const bad = await post('/call/start', { start: startOf(project_id, 'c', { started_at: 'yesterday' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'start', 'started_at']);
    const long = await post('/call/start', { start: startOf(project_id, 'c', { display_name: 'x'.repeat(1025) }) });
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({ loc: ['body', 'start', 'display_name'], type: 'string_too_long' });
    expect(await read(project_id, 'c')).toBeNull();
  });

  it('422s an impossible calendar date', async () => {
    const project_id = newProject();
    const res = await post('/call/start', { start: startOf(project_id, 'c', { started_at: '2024-13-45T00:00:00Z' }) });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'start', 'started_at']);
    expect(await read(project_id, 'c')).toBeNull();
  });
});

describe('POST /call/end', () => {
  it('completes a call: output, summary kept, status success, latency truncated to whole ms', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { started_at: '2024-01-01T00:00:00Z' });
    await end(project_id, 'c', {
      ended_at: '2024-01-01T00:00:01.5009Z',
      output: { answer: [1, 'two', { three: 3 }] },
      summary: { usage: { 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, requests: 1 } } },
      wb_run_step_end: 9,
    });
    const call = await read(project_id, 'c');
    expect(call?.ended_at).toBe('2024-01-01T00:00:01.500900Z');
    expect(call?.output).toEqual({ answer: [1, 'two', { three: 3 }] });
    expect(call?.exception).toBeNull();
    expect(call?.wb_run_step_end).toBe(9);
    expect(call?.summary).toEqual({
      usage: { 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, requests: 1 } },
      // The token totals are the server's (core/usage.ts): the surfaces read these, never recount.
      weave: {
        status: 'success',
        latency_ms: 1500,
        trace_name: 'op',
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        requests: 1,
        model_tokens: { 'gpt-4o': { input_tokens: 10, output_tokens: 5, total_tokens: 15, requests: 1 } },
      },
    });
  });

  it('keeps scalar outputs, including null and strings', async () => {
    const project_id = newProject();
    for (const [id, output] of [
      ['s', 'text'],
      ['n', 42],
      ['z', null],
      ['b', false],
    ] as const) {
      await start(project_id, id);
      await end(project_id, id, { output });
      expect((await read(project_id, id))?.output).toEqual(output);
    }
  });

  it('marks a call with an exception as error', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    await end(project_id, 'c', { exception: 'ValueError: boom', output: null });
    const call = await read(project_id, 'c');
    expect(call?.exception).toBe('ValueError: boom');
    expect((call?.summary as { weave: Record<string, unknown> }).weave).toEqual({ status: 'error', latency_ms: 1000, trace_name: 'op' });
  });

  it('derives descendant_error from status_counts and keeps other keys under summary.weave', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    await end(project_id, 'c', { summary: { status_counts: { success: 2, error: 1 }, weave: { custom: 'kept', status: 'bogus' } } });
    const call = await read(project_id, 'c');
    expect(call?.summary).toEqual({
      status_counts: { success: 2, error: 1 },
      weave: { custom: 'kept', status: 'descendant_error', latency_ms: 1000, trace_name: 'op' },
    });
  });

  it('treats a null summary as empty', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    await end(project_id, 'c', { summary: null, output: null, exception: null });
    expect((await read(project_id, 'c'))?.summary).toEqual({ weave: { status: 'success', latency_ms: 1000, trace_name: 'op' } });
  });

  it('keeps an end that arrives before its start, invisible until the start arrives, then merged', async () => {
    const project_id = newProject();
    await end(project_id, 'early', { output: 'done', ended_at: '2024-01-01T00:00:02Z' });
    expect(await read(project_id, 'early')).toBeNull();
    expect(await query({ project_id })).toEqual([]);
    expect(await count({ project_id })).toBe(0);

    await start(project_id, 'early', { inputs: { x: 1 } });
    const call = await read(project_id, 'early');
    expect(call).toMatchObject({
      id: 'early',
      inputs: { x: 1 },
      output: 'done',
      ended_at: '2024-01-01T00:00:02Z',
      summary: { weave: { status: 'success', latency_ms: 2000 } },
    });
    expect(await count({ project_id })).toBe(1);
  });

  it('422s an end without id or ended_at', async () => {
    const project_id = newProject();
    const res = await post('/call/end', { end: { project_id, summary: {} } });
    expect(res.status).toBe(422);
    const locs = (res.body.detail as { loc: unknown[] }[]).map((d) => d.loc);
    expect(locs).toContainEqual(['body', 'end', 'id']);
    expect(locs).toContainEqual(['body', 'end', 'ended_at']);
  });
});

describe('POST /call/upsert_batch', () => {
  it('applies starts and ends in order and answers one result per item', async () => {
    const project_id = newProject();
    const res = await t.alice.client.callUpsertBatch({
      batch: [
        { mode: 'start', req: { start: startOf(project_id, 'root', { trace_id: 'tr' }) } },
        { mode: 'start', req: { start: startOf(project_id, 'kid', { trace_id: 'tr', parent_id: 'root' }) } },
        { mode: 'end', req: { end: endOf(project_id, 'kid', { output: 1 }) } },
        { mode: 'end', req: { end: endOf(project_id, 'root', { output: 2 }) } },
      ],
    });
    expect(res).toEqual({ res: [{ id: 'root', trace_id: 'tr' }, { id: 'kid', trace_id: 'tr' }, {}, {}] });
    const calls = await query({ project_id, sort_by: [{ field: 'id', direction: 'desc' }] });
    expect(calls.map((c) => [c.id, c.parent_id, c.output, (c.summary as { weave: { status: string } }).weave.status])).toEqual([
      ['root', null, 2, 'success'],
      ['kid', 'root', 1, 'success'],
    ]);
  });

  it('merges an end that precedes its start within one batch', async () => {
    const project_id = newProject();
    await t.alice.client.callUpsertBatch({
      batch: [
        { mode: 'end', req: { end: endOf(project_id, 'c', { output: 'o' }) } },
        { mode: 'start', req: { start: startOf(project_id, 'c', { inputs: { i: 1 } }) } },
      ],
    });
    expect(await read(project_id, 'c')).toMatchObject({ inputs: { i: 1 }, output: 'o', ended_at: '2024-01-01T00:00:01Z' });
  });

  it('applies repeated parts of one call in order (the last end wins) and keeps projects apart', async () => {
    const project_id = newProject();
    const other = newProject();
    await t.alice.client.callUpsertBatch({
      batch: [
        { mode: 'start', req: { start: startOf(project_id, 'c') } },
        { mode: 'end', req: { end: endOf(project_id, 'c', { output: 'first' }) } },
        { mode: 'end', req: { end: endOf(other, 'c', { output: 'other project' }) } },
        { mode: 'end', req: { end: endOf(project_id, 'c', { output: 'second', ended_at: '2024-01-01T00:00:03Z' }) } },
      ],
    });
    expect(await read(project_id, 'c')).toMatchObject({ output: 'second', ended_at: '2024-01-01T00:00:03Z' });
    expect(await read(other, 'c')).toBeNull();
  });

  it('generates ids for starts without one', async () => {
    const project_id = newProject();
    const { res } = await t.alice.client.callUpsertBatch({
      batch: [{ mode: 'start', req: { start: { project_id, op_name: 'x', started_at: '2024-01-01T00:00:00Z' } } }],
    });
    expect((res[0] as { id: string }).id).toMatch(UUID_V7);
  });

  it('answers an empty batch with an empty result', async () => {
    expect(await t.alice.client.callUpsertBatch({ batch: [] })).toEqual({ res: [] });
  });

  it('writes nothing when one item is invalid (422 pointing at the item)', async () => {
    const project_id = newProject();
    const { op_name: _omit, ...noOp } = startOf(project_id, 'bad');
    const res = await post('/call/upsert_batch', {
      batch: [
        { mode: 'start', req: { start: startOf(project_id, 'good') } },
        { mode: 'start', req: { start: noOp } },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(
      expect.objectContaining({ loc: ['body', 'batch', 1, 'req', 'start', 'op_name'], type: 'missing' }),
    );
    expect(await read(project_id, 'good')).toBeNull();
    expect(await count({ project_id })).toBe(0);
  });

  it('rejects an unknown mode and writes nothing', async () => {
    const project_id = newProject();
    const res = await post('/call/upsert_batch', {
      batch: [
        { mode: 'start', req: { start: startOf(project_id, 'good') } },
        { mode: 'complete', req: { start: startOf(project_id, 'other') } },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'batch', 1, 'mode']);
    expect(await count({ project_id })).toBe(0);
  });
});

describe('POST /call/read', () => {
  it('answers call: null for an unknown id, and for an id from another project', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    expect(await read(project_id, 'nope')).toBeNull();
    expect(await read(newProject(), 'c')).toBeNull();
    expect(await read(project_id, 'c')).not.toBeNull();
  });

  it('reports storage sizes only when asked; the trace total only on the root', async () => {
    const project_id = newProject();
    await start(project_id, 'root', { trace_id: 't', inputs: { text: 'x'.repeat(100) } });
    await start(project_id, 'kid', { trace_id: 't', parent_id: 'root', inputs: { text: 'y'.repeat(50) } });
    const plain = await read(project_id, 'root');
    expect(plain).not.toHaveProperty('storage_size_bytes');
    const root = await read(project_id, 'root', { include_storage_size: true, include_total_storage_size: true });
    const kid = await read(project_id, 'kid', { include_storage_size: true, include_total_storage_size: true });
    expect(root?.storage_size_bytes).toBeGreaterThan(100);
    expect(kid?.storage_size_bytes).toBeGreaterThan(50);
    expect(root?.total_storage_size_bytes).toBe(root!.storage_size_bytes! + kid!.storage_size_bytes!);
    expect(kid?.total_storage_size_bytes).toBeNull();
  });

  it('treats null include_* flags as absent', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    const call = await read(project_id, 'c', { include_costs: null, include_storage_size: null, include_total_storage_size: null });
    expect(call?.id).toBe('c');
    expect(call).not.toHaveProperty('storage_size_bytes');
  });

  it('422s without project_id: loc ["body","project_id"], type "missing"', async () => {
    const res = await post('/call/read', { id: 'c' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['body', 'project_id'], msg: expect.any(String), type: 'missing' }] });
  });

  it('422s a project_id that is not "<entity>/<project>"', async () => {
    const res = await post('/call/read', { project_id: 'no-slash', id: 'c' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'project_id']);
  });
});

describe('POST /call/update', () => {
  it('renames a call; summary.weave then carries display_name instead of trace_name; latest wins', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    expect(await t.alice.client.callUpdate({ project_id, call_id: 'c', display_name: 'first' })).toEqual({});
    expect(await t.alice.client.callUpdate({ project_id, call_id: 'c', display_name: 'second' })).toEqual({});
    const call = await read(project_id, 'c');
    expect(call?.display_name).toBe('second');
    expect(call?.summary).toEqual({ weave: { status: 'running', display_name: 'second' } });
  });

  it('does not touch the same id in another project', async () => {
    const a = newProject();
    const b = newProject();
    await start(a, 'c');
    await start(b, 'c');
    await t.alice.client.callUpdate({ project_id: a, call_id: 'c', display_name: 'renamed' });
    expect((await read(b, 'c'))?.display_name).toBeNull();
  });

  it('keeps a rename that arrives before a start without display_name, as it keeps an early end', async () => {
    const project_id = newProject();
    await t.alice.client.callUpdate({ project_id, call_id: 'c', display_name: 'early name' });
    expect(await read(project_id, 'c')).toBeNull();
    await start(project_id, 'c');
    const call = await read(project_id, 'c');
    expect(call?.display_name).toBe('early name');
    expect(call?.summary).toEqual({ weave: { status: 'running', display_name: 'early name' } });
  });

  it('accepts an unknown call id', async () => {
    expect(await post('/call/update', { project_id: newProject(), call_id: 'nope', display_name: 'x' })).toEqual({ status: 200, body: {} });
  });

  it('answers 400 {reason} when display_name is null or absent', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { display_name: 'keep' });
    for (const body of [
      { project_id, call_id: 'c', display_name: null },
      { project_id, call_id: 'c' },
    ]) {
      const res = await post('/call/update', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ reason: expect.stringContaining('display_name') });
    }
    expect((await read(project_id, 'c'))?.display_name).toBe('keep');
  });

  it('422s without call_id', async () => {
    const res = await post('/call/update', { project_id: newProject(), display_name: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'call_id'], type: 'missing' });
  });
});

describe('POST /calls/delete', () => {
  /** root → (a → (a1, a2), b); other is a separate trace. */
  async function tree(project_id: string) {
    await start(project_id, 'root');
    await start(project_id, 'a', { parent_id: 'root' });
    await start(project_id, 'a1', { parent_id: 'a' });
    await start(project_id, 'a2', { parent_id: 'a' });
    await start(project_id, 'b', { parent_id: 'root' });
    await start(project_id, 'other');
  }

  it('soft-deletes a call and all its descendants, and counts them', async () => {
    const project_id = newProject();
    await tree(project_id);
    expect(await t.alice.client.callsDelete({ project_id, call_ids: ['a'] })).toEqual({ num_deleted: 3 });
    for (const id of ['a', 'a1', 'a2']) expect(await read(project_id, id)).toBeNull();
    expect((await query({ project_id })).map((c) => c.id).sort()).toEqual(['b', 'other', 'root']);
    expect(await count({ project_id })).toBe(3);
  });

  it('deletes a whole trace from its root, and counts a deleted call only once', async () => {
    const project_id = newProject();
    await tree(project_id);
    expect(await t.alice.client.callsDelete({ project_id, call_ids: ['root', 'a1', 'missing'] })).toEqual({ num_deleted: 5 });
    expect((await query({ project_id })).map((c) => c.id)).toEqual(['other']);
    expect(await t.alice.client.callsDelete({ project_id, call_ids: ['root'] })).toEqual({ num_deleted: 0 });
  });

  it('only touches the given project', async () => {
    const a = newProject();
    const b = newProject();
    await tree(a);
    await tree(b);
    await t.alice.client.callsDelete({ project_id: a, call_ids: ['root'] });
    expect(await count({ project_id: b })).toBe(6);
  });

  it('answers 0 for an empty list', async () => {
    expect(await t.alice.client.callsDelete({ project_id: newProject(), call_ids: [] })).toEqual({ num_deleted: 0 });
  });

  it('answers 413 for more than 1000 ids and deletes nothing', async () => {
    const project_id = newProject();
    await start(project_id, 'keep');
    const res = await post('/calls/delete', { project_id, call_ids: ['keep', ...Array.from({ length: 1000 }, (_, i) => `id-${i}`)] });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ reason: expect.stringContaining('1000') });
    expect(await read(project_id, 'keep')).not.toBeNull();
  });

  it('422s without call_ids', async () => {
    const res = await post('/calls/delete', { project_id: newProject() });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'call_ids'], type: 'missing' });
  });
});

describe('POST /calls/query_stats', () => {
  it('counts the matching calls, capped at limit', async () => {
    const project_id = newProject();
    await start(project_id, 'r1');
    await start(project_id, 'r2');
    await start(project_id, 'k', { parent_id: 'r1' });
    expect(await t.alice.client.callsQueryStats({ project_id })).toEqual({ count: 3, total_storage_size_bytes: null });
    expect(await count({ project_id, filter: { trace_roots_only: true } })).toBe(2);
    expect(await count({ project_id, filter: { parent_ids: ['r1'] } })).toBe(1);
    expect(await count({ project_id, limit: 2 })).toBe(2);
    expect(await count({ project_id, filter: null, query: null, limit: null })).toBe(3);
    expect(await count({ project_id: newProject() })).toBe(0);
  });

  it('sums the storage of the matching traces when asked', async () => {
    const project_id = newProject();
    await start(project_id, 'r', { inputs: { t: 'x'.repeat(40) } });
    const { total_storage_size_bytes } = await t.alice.client.callsQueryStats({ project_id, include_total_storage_size: true });
    const root = await read(project_id, 'r', { include_total_storage_size: true });
    expect(total_storage_size_bytes).toBeGreaterThan(40);
    expect(total_storage_size_bytes).toBe(root?.total_storage_size_bytes);
  });

  it('answers 400 {reason} for limit < 1', async () => {
    const res = await post('/calls/query_stats', { project_id: newProject(), limit: 0 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ reason: expect.any(String) });
  });

  it('422s without project_id', async () => {
    const res = await post('/calls/query_stats', {});
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'project_id'], type: 'missing' })]);
  });
});

describe('POST /calls/stream_query', () => {
  it('answers JSON lines: one \\n-terminated CallSchema object per line, no array wrapper', async () => {
    const project_id = newProject();
    await start(project_id, 'b', { started_at: '2024-01-01T00:00:02Z' });
    await start(project_id, 'a', { started_at: '2024-01-01T00:00:01Z' });
    await start(project_id, 'c', { started_at: '2024-01-01T00:00:02Z' });
    const res = await t.fetch('/calls/stream_query', { json: { project_id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jsonl/);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(3);
    const rows = lines.map((l) => JSON.parse(l) as CallSchema);
    // Default order: started_at asc, then id asc.
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(rows[0]).toMatchObject({ project_id, op_name: 'op', summary: { weave: { status: 'running', trace_name: 'op' } } });
  });

  it('answers an empty body when nothing matches', async () => {
    const res = await t.fetch('/calls/stream_query', { json: { project_id: newProject() } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('echoes an application/x-ndjson Accept header in the content type', async () => {
    const res = await t.fetch('/calls/stream_query', {
      json: { project_id: newProject() },
      headers: { authorization: t.alice.authHeader, accept: 'application/x-ndjson' },
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    await res.text();
  });

  it('streams large results whole and in order across many chunks', async () => {
    const project_id = newProject();
    const n = 300;
    const pad = 'z'.repeat(600);
    const ids = Array.from({ length: n }, (_, i) => `c${String(i).padStart(4, '0')}`);
    await t.alice.client.callUpsertBatch({
      batch: ids.map((id) => ({ mode: 'start' as const, req: { start: startOf(project_id, id, { inputs: { pad, id } }) } })),
    });
    const res = await t.fetch('/calls/stream_query', { json: { project_id } });
    const text = await res.text();
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    const rows = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as CallSchema);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.every((r) => (r.inputs as { pad: string }).pad === pad)).toBe(true);
  });

  it('applies sort_by, limit and offset', async () => {
    const project_id = newProject();
    for (const [id, s] of [
      ['x', 3],
      ['y', 1],
      ['z', 2],
    ] as const)
      await start(project_id, id, { started_at: `2024-01-01T00:00:0${s}Z` });
    const ids = async (body: Record<string, unknown>) => (await query({ project_id, ...body })).map((c) => c.id);
    expect(await ids({})).toEqual(['y', 'z', 'x']);
    expect(await ids({ sort_by: [{ field: 'started_at', direction: 'desc' }] })).toEqual(['x', 'z', 'y']);
    expect(await ids({ limit: 2 })).toEqual(['y', 'z']);
    expect(await ids({ limit: 2, offset: 2 })).toEqual(['x']);
    expect(await ids({ offset: 1 })).toEqual(['z', 'x']);
  });

  it('filters by trace, parent, call id, op name (with :* versions) and roots only', async () => {
    const project_id = newProject();
    const ref = (d: string) => `weave:///${project_id}/op/fn:${d}`;
    await start(project_id, 'r', { trace_id: 't1', op_name: ref('v1') });
    await start(project_id, 'k', { trace_id: 't1', parent_id: 'r', op_name: ref('v2') });
    await start(project_id, 'o', { trace_id: 't2', op_name: 'other' });
    const ids = async (filter: Record<string, unknown>) => (await query({ project_id, filter })).map((c) => c.id).sort();
    expect(await ids({ trace_ids: ['t1'] })).toEqual(['k', 'r']);
    expect(await ids({ parent_ids: ['r'] })).toEqual(['k']);
    expect(await ids({ call_ids: ['o', 'k'] })).toEqual(['k', 'o']);
    expect(await ids({ op_names: [ref('v1')] })).toEqual(['r']);
    expect(await ids({ op_names: [`weave:///${project_id}/op/fn:*`] })).toEqual(['k', 'r']);
    expect(await ids({ trace_roots_only: true })).toEqual(['o', 'r']);
    expect(await ids({ trace_ids: ['t1'], trace_roots_only: true })).toEqual(['r']);
  });

  it('finds calls by the refs in their inputs and outputs', async () => {
    const project_id = newProject();
    const objRef = `weave:///${project_id}/object/doc:abc`;
    await start(project_id, 'in', { inputs: { doc: objRef } });
    await start(project_id, 'out');
    await end(project_id, 'out', { output: { nested: [objRef] } });
    const ids = async (filter: Record<string, unknown>) => (await query({ project_id, filter })).map((c) => c.id);
    expect(await ids({ input_refs: [objRef] })).toEqual(['in']);
    expect(await ids({ output_refs: [objRef] })).toEqual(['out']);
  });

  it('treats every null field as absent', async () => {
    const project_id = newProject();
    await start(project_id, 'c');
    const rows = await query({
      project_id,
      filter: null,
      query: null,
      sort_by: null,
      limit: null,
      offset: null,
      columns: null,
      expand_columns: null,
      return_expanded_column_values: null,
      include_costs: null,
      include_feedback: null,
      include_storage_size: null,
      include_total_storage_size: null,
    });
    expect(rows.map((r) => r.id)).toEqual(['c']);
  });

  it('returns a column subset with the always-present fields', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { inputs: { q: 1 }, attributes: { a: 1 }, parent_id: 'p' });
    const [row] = await query({ project_id, columns: ['inputs'] });
    expect(row).toMatchObject({ id: 'c', project_id, op_name: 'op', started_at: '2024-01-01T00:00:00Z', inputs: { q: 1 } });
    expect(row?.trace_id).toBeTruthy();
    expect(row?.attributes).toEqual({});
    expect(row?.parent_id).toBeNull();
  });

  it('adds storage sizes when asked', async () => {
    const project_id = newProject();
    await start(project_id, 'c', { inputs: { q: 'x'.repeat(30) } });
    const [row] = await query({ project_id, include_storage_size: true, include_total_storage_size: true });
    expect(row?.storage_size_bytes).toBeGreaterThan(30);
    expect(row?.total_storage_size_bytes).toBe(row?.storage_size_bytes);
  });

  it('422s without project_id and for a sort_by without direction', async () => {
    const missing = await post('/calls/stream_query', {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'project_id'], type: 'missing' });
    const res = await t.fetch('/calls/stream_query', { json: { project_id: newProject(), sort_by: [{ field: 'id' }] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body', 'sort_by', 0, 'direction']);
  });
});
