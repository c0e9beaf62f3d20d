/**
 * `/mcp` driven by the MCP SDK's own client (Client + StreamableHTTPClientTransport) against a
 * real server on each store: every tool answers the seeded calls, trace, thread, evaluation runs
 * and queue; another tenant's project is refused by every tool and left out of list_projects;
 * limits are capped at WEFT_MCP_MAX_ROWS and payloads cut at WEFT_MCP_MAX_PAYLOAD_CHARS.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftClient } from '../../client/index.js';
import { publishEvaluation, FIXTURE_ROWS } from '../testing/evaluationFixture.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

const P = 'alice-co/agent';
const BOB_P = 'bob-co/secret';
const op = (name: string) => `weave:///${P}/op/${name}:v1`;
const MAX_ROWS = 5;
const MAX_PAYLOAD = 200;

type Answer = Record<string, unknown>;

async function connect(url: string, authorization: string | null): Promise<Client> {
  const client = new Client({ name: 'weft-mcp-test', version: '1.0.0' });
  const headers: Record<string, string> = authorization ? { authorization } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** A tool's structured answer; a tool error throws with its text. */
async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content as { text: string }[])[0]?.text ?? '';
  if (res.isError) throw new Error(text);
  expect(JSON.parse(text)).toEqual(res.structuredContent);
  return res.structuredContent as Answer;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError).toBe(true);
  return (res.content as { text: string }[])[0]!.text;
}

interface Seeded {
  runA: string;
  runB: string;
  queueId: string;
  verdict: string;
}

async function seed(alice: WeftClient, bob: WeftClient): Promise<Seeded> {
  const start = (id: string, extra: Record<string, unknown>) => ({
    mode: 'start' as const,
    req: {
      start: { project_id: P, id, trace_id: 'trace-1', op_name: op('agent.run'), started_at: '2026-01-01T00:00:00Z', inputs: {}, ...extra },
    },
  });
  const end = (id: string, ended_at: string, extra: Record<string, unknown> = {}) => ({
    mode: 'end' as const,
    req: { end: { project_id: P, id, ended_at, summary: {}, ...extra } },
  });
  await alice.callUpsertBatch({
    batch: [
      start('run-1', { inputs: { question: 'Where is the Purple Elephant?' } }),
      start('llm-1', { parent_id: 'run-1', op_name: op('llm.chat'), started_at: '2026-01-01T00:00:01Z' }),
      start('tool-1', { parent_id: 'run-1', op_name: 'tool.search', started_at: '2026-01-01T00:00:06Z' }),
      start('old-1', { trace_id: 'trace-0', started_at: '2025-06-01T00:00:00Z', inputs: { question: 'old' } }),
      start('jp-1', { trace_id: 'trace-jp', started_at: '2025-07-01T00:00:00Z', inputs: { question: '東京の天気は？' } }),
      ...[1, 2, 3].map((i) =>
        start(`turn-${i}`, {
          trace_id: `conv-trace-${i}`,
          op_name: op('chat.turn'),
          thread_id: 'conv-1',
          turn_id: `turn-${i}`,
          started_at: `2026-01-02T00:0${i}:00Z`,
          inputs: { messages: [{ role: 'user', content: `hello ${i}` }] },
        }),
      ),
    ],
  });
  await alice.callUpsertBatch({
    batch: [
      end('llm-1', '2026-01-01T00:00:05Z', {
        output: 'x'.repeat(1000),
        summary: { usage: { 'gpt-4o': { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, requests: 1 } } },
      }),
      end('tool-1', '2026-01-01T00:00:07Z', { exception: 'ValueError: boom\nTraceback (most recent call last)' }),
      end('run-1', '2026-01-01T00:00:10Z', { output: { answer: 'nowhere' } }),
      end('old-1', '2025-06-01T00:00:01Z'),
      ...[1, 2, 3].map((i) => end(`turn-${i}`, `2026-01-02T00:0${i}:30Z`, { output: { content: `answer ${i}` } })),
    ],
  });
  await bob.callStart({
    start: { project_id: BOB_P, id: 'bob-call', op_name: 'secret.op', started_at: '2026-01-01T00:00:00Z', inputs: {} },
  });

  // Two evaluation runs: A passes `exact` on 1 of 3 rows (closeness mean 0.5), B on all 3 (mean 5/6).
  const f = await publishEvaluation(alice, 'alice-co', 'agent');
  const run = async (model: string, scores: [string, boolean, number][]) => {
    const { evaluation_run_id } = await alice.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model });
    for (const [i, [output, exact, closeness]] of scores.entries()) {
      const { prediction_id } = await alice.predictionCreate({ ...f.path, model, inputs: FIXTURE_ROWS[i]!, output, evaluation_run_id });
      await alice.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.exact, value: exact, evaluation_run_id });
      await alice.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.closeness, value: closeness, evaluation_run_id });
      await alice.predictionFinish({ ...f.path, prediction_id });
    }
    await alice.evaluationRunFinish({ ...f.path, evaluation_run_id });
    return evaluation_run_id;
  };
  const runA = await run(f.models.a, [
    ['4', true, 1],
    ['Lyon', false, 0.5],
    ['green', false, 0],
  ]);
  const runB = await run(f.models.b, [
    ['4', true, 1],
    ['Paris', true, 1],
    ['blue', true, 0.5],
  ]);

  // A queue over two calls, one answered "good".
  const spec = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'verdict',
    field_schema: { type: 'string' },
  };
  const { digest } = await alice.objCreate({ obj: { project_id: P, object_id: 'verdict', val: spec } });
  const verdict = `weave:///${P}/object/verdict:${digest}`;
  const { id: queueId } = await alice.annotationQueueCreate({ project_id: P, name: 'Review', scorer_refs: [verdict] });
  await alice.annotationQueueAddCalls({ project_id: P, queue_id: queueId, call_ids: ['llm-1', 'tool-1'], display_fields: [] });
  const items = (await alice.annotationQueueItemsQuery({ project_id: P, queue_id: queueId })).items;
  const item = items.find((i) => i.call_id === 'llm-1')!;
  await alice.annotationQueueItemSubmit({
    project_id: P,
    queue_id: queueId,
    item_id: item.id,
    annotations: [{ annotation_ref: verdict, value: 'good' }],
  });
  return { runA, runB, queueId, verdict };
}

for (const backend of testBackends()) {
  describe(`MCP at /mcp (${backend.name})`, () => {
    let t: TestServer;
    let alice: Client;
    let bob: Client;
    let s: Seeded;

    beforeAll(async () => {
      t = await startTestServer({
        env: { ...backend.serverEnv, WEFT_MCP_MAX_ROWS: String(MAX_ROWS), WEFT_MCP_MAX_PAYLOAD_CHARS: String(MAX_PAYLOAD) },
      });
      s = await seed(t.alice.client, t.bob.client);
      // Alice sends Basic api:<key> (the Python SDK's way), Bob a Bearer key.
      alice = await connect(t.url, t.alice.authHeader);
      bob = await connect(t.url, `Bearer ${t.bob.apiKey}`);
    }, 120_000);
    afterAll(async () => {
      await alice?.close();
      await bob?.close();
      await t?.close();
    });

    it('offers the read-only tools, each with an input schema', async () => {
      const { tools } = await alice.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual([
        'annotation_results',
        'compare_evaluation_runs',
        'list_annotation_queues',
        'list_evaluation_runs',
        'list_projects',
        'read_call',
        'search_calls',
        'search_threads',
        'summarize_thread',
        'trace_outline',
      ]);
      for (const x of tools) {
        expect(x.annotations?.readOnlyHint).toBe(true);
        expect(x.inputSchema.type).toBe('object');
      }
      const search = tools.find((x) => x.name === 'search_calls')!;
      expect(search.inputSchema.required).toEqual(['project_id']);
    });

    it('lists only the projects the key may read', async () => {
      const mine = (await tool(alice, 'list_projects', {})).projects as { project_id: string; call_count: number }[];
      expect(mine.map((p) => p.project_id)).toContain(P);
      expect(mine.map((p) => p.project_id)).not.toContain(BOB_P);
      const bobs = (await tool(bob, 'list_projects', {})).projects as { project_id: string }[];
      expect(bobs.map((p) => p.project_id)).toEqual([BOB_P]);
    });

    it('searches calls by op, time, status and text, newest first, without payloads', async () => {
      const byOp = (await tool(alice, 'search_calls', { project_id: P, op: 'agent.run' })).calls as Answer[];
      expect(byOp.map((c) => c.id)).toEqual(['run-1', 'jp-1', 'old-1']);
      expect(byOp[0]).toMatchObject({ name: 'agent.run', trace_id: 'trace-1', parent_id: null, latency_ms: 10_000 });
      expect(byOp[0]).not.toHaveProperty('inputs');

      const recent = (await tool(alice, 'search_calls', { project_id: P, op: 'agent.run', started_after: '2025-12-01T00:00:00Z' }))
        .calls as Answer[];
      expect(recent.map((c) => c.id)).toEqual(['run-1']);
      const older = (await tool(alice, 'search_calls', { project_id: P, started_before: '2025-12-01T00:00:00Z' })).calls as Answer[];
      expect(older.map((c) => c.id)).toEqual(['jp-1', 'old-1']);

      const failed = (await tool(alice, 'search_calls', { project_id: P, status: 'error' })).calls as Answer[];
      expect(failed).toEqual([
        expect.objectContaining({ id: 'tool-1', name: 'tool.search', status: 'error', exception: 'ValueError: boom' }),
      ]);

      // A case-insensitive substring of an input.
      const found = (await tool(alice, 'search_calls', { project_id: P, text: 'purple eleph' })).calls as Answer[];
      expect(found.map((c) => c.id)).toEqual(['run-1']);
      // Any script: a substring in the middle of a Japanese sentence (no spaces to split words on).
      const japanese = (await tool(alice, 'search_calls', { project_id: P, text: '京の天' })).calls as Answer[];
      expect(japanese.map((c) => c.id)).toEqual(['jp-1']);

      const llm = (await tool(alice, 'search_calls', { project_id: P, op: 'llm.chat' })).calls as Answer[];
      expect(llm).toEqual([expect.objectContaining({ id: 'llm-1', status: 'success', total_tokens: 120, latency_ms: 4000 })]);
    });

    it('caps a larger limit at WEFT_MCP_MAX_ROWS and says so', async () => {
      const page = await tool(alice, 'search_calls', { project_id: P, limit: 1000 });
      expect((page.calls as unknown[]).length).toBe(MAX_ROWS);
      expect(page.limit_capped).toMatch(/WEFT_MCP_MAX_ROWS/);
      expect(page.next_offset).toBe(MAX_ROWS);
      const next = await tool(alice, 'search_calls', { project_id: P, limit: 1000, offset: MAX_ROWS });
      const ids = new Set([...(page.calls as Answer[]), ...(next.calls as Answer[])].map((c) => c.id));
      expect(ids.size).toBe((page.calls as unknown[]).length + (next.calls as unknown[]).length);
      const small = await tool(alice, 'search_calls', { project_id: P, limit: 2 });
      expect((small.calls as unknown[]).length).toBe(2);
      expect(small).not.toHaveProperty('limit_capped');
    });

    it('outlines a trace as a tree with subtree rollups, and cuts a large one', async () => {
      const outline = await tool(alice, 'trace_outline', { project_id: P, trace_id: 'trace-1' });
      expect(outline).toMatchObject({ trace_id: 'trace-1', total_calls: 3, shown_calls: 3 });
      const [root] = outline.roots as Answer[];
      expect(root).toMatchObject({ id: 'run-1', name: 'agent.run', subtree: { calls: 3, errors: 1, total_tokens: 120 } });
      expect((root!.children as Answer[]).map((c) => [c.id, c.status])).toEqual([
        ['llm-1', 'success'],
        ['tool-1', 'error'],
      ]);
      expect(JSON.stringify(outline)).not.toContain('xxxx');

      const cut = await tool(alice, 'trace_outline', { project_id: P, trace_id: 'trace-1', limit: 2 });
      expect(cut).toMatchObject({ total_calls: 3, shown_calls: 2, cut: expect.stringContaining('first 2') });
      expect(await toolError(alice, 'trace_outline', { project_id: P, trace_id: 'no-such-trace' })).toMatch(/^404: No calls in trace/);
    });

    it('reads a call whole, its payloads cut at WEFT_MCP_MAX_PAYLOAD_CHARS', async () => {
      const root = await tool(alice, 'read_call', { project_id: P, call_id: 'run-1' });
      expect(root).toMatchObject({ id: 'run-1', inputs: { question: 'Where is the Purple Elephant?' }, output: { answer: 'nowhere' } });
      const llm = await tool(alice, 'read_call', { project_id: P, call_id: 'llm-1' });
      expect(llm.output).toEqual({ _truncated: `1000 characters of JSON, cut to ${MAX_PAYLOAD}`, preview: 'x'.repeat(MAX_PAYLOAD) });
      expect(llm.total_tokens).toBe(120);
      expect(await toolError(alice, 'read_call', { project_id: P, call_id: 'nope' })).toMatch(/^404: Call nope not found/);
    });

    it('searches threads and summarizes one', async () => {
      const threads = (await tool(alice, 'search_threads', { project_id: P })).threads as Answer[];
      expect(threads).toEqual([expect.objectContaining({ thread_id: 'conv-1', turn_count: 3, error_count: 0 })]);
      expect((await tool(alice, 'search_threads', { project_id: P, text: 'hello' })).threads).toHaveLength(1);
      expect((await tool(alice, 'search_threads', { project_id: P, text: 'nothing-like-this' })).threads).toEqual([]);
      expect((await tool(alice, 'search_threads', { project_id: P, with_errors: true })).threads).toEqual([]);

      const summary = await tool(alice, 'summarize_thread', { project_id: P, thread_id: 'conv-1' });
      expect(summary).toMatchObject({
        thread_id: 'conv-1',
        turn_count: 3,
        finished_turn_count: 3,
        error_count: 0,
        p50_turn_duration_ms: 30_000,
        first_turn_id: 'turn-1',
        last_turn_id: 'turn-3',
        duration_ms: 150_000,
        first_input: { messages: [{ role: 'user', content: 'hello 1' }] },
        last_output: { content: 'answer 3' },
      });
      expect(await toolError(alice, 'summarize_thread', { project_id: P, thread_id: 'nope' })).toMatch(/^404: Thread nope/);
    });

    it('lists evaluation runs and compares two per scorer', async () => {
      const runs = (await tool(alice, 'list_evaluation_runs', { project_id: P })).runs as Answer[];
      expect(runs.map((r) => [r.evaluation_run_id, r.status])).toEqual([
        [s.runA, 'completed'],
        [s.runB, 'completed'],
      ]);
      const cmp = await tool(alice, 'compare_evaluation_runs', { project_id: P, run_a: s.runA, run_b: s.runB });
      expect(cmp.run_a).toMatchObject({ evaluation_run_id: s.runA, row_count: 3, trial_count: 3 });
      expect(cmp.run_b).toMatchObject({ evaluation_run_id: s.runB, row_count: 3, trial_count: 3 });
      const scorers = cmp.scorers as { scorer: string; a: Answer; b: Answer; delta_mean: number | null; delta_pass_rate: number | null }[];
      expect(scorers.map((x) => x.scorer)).toEqual(['closeness', 'exact']);
      const [closeness, exact] = scorers;
      expect(exact!.a.pass_rate).toBeCloseTo(1 / 3);
      expect(exact!.b.pass_rate).toBe(1);
      expect(exact!.delta_pass_rate).toBeCloseTo(2 / 3);
      expect(closeness!.a.numeric_mean).toBeCloseTo(0.5);
      expect(closeness!.b.numeric_mean).toBeCloseTo(5 / 6);
      expect(closeness!.delta_mean).toBeCloseTo(1 / 3);
      // Rows 2 and 3 changed scores; row 1 (2+2, '4' in both) did not.
      expect(cmp.changed_row_count).toBe(2);
      const changed = cmp.changed_rows as { input: { question: string }; a: Answer[]; b: Answer[] }[];
      expect(changed.map((r) => r.input.question).sort()).toEqual([FIXTURE_ROWS[1]!.question, FIXTURE_ROWS[2]!.question].sort());
      const sky = changed.find((r) => r.input.question === FIXTURE_ROWS[2]!.question)!;
      expect(sky.a).toEqual([{ output: 'green', scores: { exact: false, closeness: 0 } }]);
      expect(sky.b).toEqual([{ output: 'blue', scores: { exact: true, closeness: 0.5 } }]);
      const none = await tool(alice, 'compare_evaluation_runs', { project_id: P, run_a: s.runA, run_b: s.runB, changed_rows: 0 });
      expect(none).not.toHaveProperty('changed_rows');
      expect(none.scorers).toEqual(cmp.scorers);
      expect(await toolError(alice, 'compare_evaluation_runs', { project_id: P, run_a: s.runA, run_b: 'nope' })).toMatch(
        /^404: Evaluation run nope/,
      );
    });

    it("lists queues and reads a queue's answers", async () => {
      const queues = (await tool(alice, 'list_annotation_queues', { project_id: P })).queues as Answer[];
      expect(queues).toEqual([expect.objectContaining({ queue_id: s.queueId, name: 'Review', questions: [s.verdict] })]);
      const results = await tool(alice, 'annotation_results', { project_id: P, queue_id: s.queueId });
      expect(results.total_items).toBe(2);
      const summary = results.summary as {
        total_items: number;
        questions: { annotation_ref: string; answered: number; counts: unknown[] }[];
      };
      expect(summary.total_items).toBe(2);
      expect(summary.questions).toEqual([
        expect.objectContaining({ annotation_ref: s.verdict, answered: 1, counts: [{ value: 'good', count: 1 }] }),
      ]);
      const items = results.items as { call_id: string; state: string; reviews: { annotator: string; answers: Answer }[] }[];
      const answered = items.find((i) => i.call_id === 'llm-1')!;
      expect(answered.state).toBe('completed');
      expect(answered.reviews).toEqual([expect.objectContaining({ annotator: 'alice', answers: { [s.verdict]: 'good' } })]);
      expect(items.find((i) => i.call_id === 'tool-1')!.reviews).toEqual([]);
      expect(await toolError(alice, 'annotation_results', { project_id: P, queue_id: 'nope' })).toMatch(/^404: Annotation queue nope/);
    });

    it("refuses every tool in another tenant's project, naming the role", async () => {
      const args: Record<string, Record<string, unknown>> = {
        search_calls: {},
        trace_outline: { trace_id: 'trace-1' },
        read_call: { call_id: 'run-1' },
        search_threads: {},
        summarize_thread: { thread_id: 'conv-1' },
        list_evaluation_runs: {},
        compare_evaluation_runs: { run_a: s.runA, run_b: s.runB },
        list_annotation_queues: {},
        annotation_results: { queue_id: s.queueId },
      };
      for (const [name, extra] of Object.entries(args)) {
        const text = await toolError(bob, name, { project_id: P, ...extra });
        expect(text, name).toMatch(/^403: User "bob" has no role in "alice-co\/agent"; .*must be a viewer or above/);
      }
      // And Alice cannot read Bob's.
      expect(await toolError(alice, 'search_calls', { project_id: BOB_P })).toMatch(/^403: User "alice" has no role in "bob-co\/secret"/);
    });

    it('refuses a request without a key, and answers bad arguments as tool errors', async () => {
      await expect(connect(t.url, null)).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/Authentication required/) });
      await expect(connect(t.url, 'Bearer not-a-key')).rejects.toMatchObject({ code: 401 });
      expect(await toolError(alice, 'search_calls', { project_id: 'no-slash' })).toMatch(/project_id/);
      expect(await toolError(alice, 'search_calls', { project_id: P, limit: 0 })).toMatch(/limit/);
      // A misspelt argument is named, not ignored (the search would otherwise answer every call).
      expect(await toolError(alice, 'search_calls', { project_id: P, stauts: 'error' })).toMatch(/stauts/);
      const get = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      expect(await get.json()).toMatchObject({ reason: expect.stringMatching(/stateless/) });
      // Refused by the transport (no Accept: text/event-stream): JSON-RPC's error and Weft's reason.
      const post = await t.fetch('/mcp', { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
      expect(post.status).toBe(406);
      expect(await post.json()).toMatchObject({
        error: { message: expect.stringMatching(/Not Acceptable/) },
        reason: expect.stringMatching(/Not Acceptable/),
      });
    });
  });
}

// On SQLite the server hands reads to request threads by default: /mcp runs there like any read.
describe('MCP at /mcp in a request thread', () => {
  let t: TestServer;
  let alice: Client;

  beforeAll(async () => {
    t = await startTestServer({ env: { WEFT_READ_THREADS: '1', WEFT_WRITE_THREADS: '1' } });
    await t.alice.client.callStart({
      start: { project_id: P, id: 'threaded-1', op_name: op('agent.run'), started_at: '2026-01-01T00:00:00Z', inputs: { q: 'hi' } },
    });
    alice = await connect(t.url, `Bearer ${t.alice.apiKey}`);
  }, 60_000);
  afterAll(async () => {
    await alice?.close();
    await t?.close();
  });

  it('answers tools and refuses other projects there too', async () => {
    expect(t.server.threads).not.toBeNull();
    const calls = (await tool(alice, 'search_calls', { project_id: P })).calls as Answer[];
    expect(calls.map((c) => c.id)).toEqual(['threaded-1']);
    expect(await toolError(alice, 'read_call', { project_id: BOB_P, call_id: 'x' })).toMatch(/^403: .*must be a viewer/);
  });
});

// The deadline is on the server's clock: this one moves a second at every reading while armed,
// so a tool call that reads the clock between rows runs out of time without any waiting.
describe('MCP tool deadline', () => {
  let t: TestServer;
  let alice: Client;
  let armed = false;
  let now = Date.parse('2026-02-01T00:00:00Z') * 1000;
  const clock = { nowMicros: () => (armed ? (now += 1_000_000) : now) };

  beforeAll(async () => {
    t = await startTestServer({ clock, env: { WEFT_MCP_TOOL_MS: '2500' } });
    await t.alice.client.callUpsertBatch({
      batch: [1, 2, 3, 4, 5, 6].map((i) => ({
        mode: 'start' as const,
        req: { start: { project_id: P, id: `slow-${i}`, op_name: op('agent.run'), started_at: `2026-01-01T00:00:0${i}Z`, inputs: {} } },
      })),
    });
    alice = await connect(t.url, `Bearer ${t.alice.apiKey}`);
  }, 60_000);
  afterAll(async () => {
    await alice?.close();
    await t?.close();
  });

  it('answers a tool error naming WEFT_MCP_TOOL_MS once a tool call passes it', async () => {
    expect(((await tool(alice, 'search_calls', { project_id: P })).calls as unknown[]).length).toBe(6);
    armed = true;
    try {
      const text = await toolError(alice, 'search_calls', { project_id: P });
      expect(text).toMatch(/^504: This tool call ran out of time \(the limit is 2500 \(WEFT_MCP_TOOL_MS\)\)/);
    } finally {
      armed = false;
    }
  });
});
