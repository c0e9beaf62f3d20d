/**
 * The official `weave` npm SDK (node_modules/weave) against a real Weft server: ops called
 * through the SDK must come back from /calls/stream_query with their inputs, outputs, parent
 * links, timings and exceptions.
 *
 * How the SDK talks to the server (weave 0.11.1, dist/weaveClient.js):
 * - `init('entity/project')` makes no request; it reads WF_TRACE_SERVER_URL and WANDB_API_KEY
 *   and sends `Authorization: Basic api:<key>` on every request.
 * - Starts and ends are queued and flushed every 200 ms as POST /call/upsert_batch;
 *   `client.waitForBatchProcessing()` resolves once the queue has been sent.
 * - Before its first call, each op saves its code: POST /file/create (multipart, errors are
 *   only logged) and then POST /obj/create, whose `digest` becomes the op ref
 *   `weave:///<entity>/<project>/op/<name>:<digest>` sent as `op_name`.
 *
 * The test records every request the SDK makes (without changing any) so it can check that
 * each one, the op-code saves included, succeeded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import type { CallSchema } from '../contract/calls.js';
import { startTestServer, type TestServer } from './testing/testServer.js';
import { initWeaveSdk, waitForSdkBatches, type SdkClient } from './testing/weaveSdk.js';

const PROJECT = 'alice-co/sdk';
const OP_REF = /^weave:\/\/\/alice-co\/sdk\/op\/([A-Za-z0-9_.-]+):([A-Za-z0-9]+)$/;

let t: TestServer;
let sdk: SdkClient;
let stopSdk: (() => void) | undefined;
/** Every request the SDK made to Weft: method, path and Weft's status. */
const seen: { method: string; path: string; status: number }[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function allCalls(filter: Record<string, unknown> = {}): Promise<CallSchema[]> {
  const out: CallSchema[] = [];
  for await (const c of t.alice.client.callsStreamQuery({ project_id: PROJECT, filter })) out.push(c);
  return out;
}

const opNameOf = (c: CallSchema) => OP_REF.exec(c.op_name)?.[1];
const ms = (iso: string | null) => Date.parse(iso ?? '');

beforeAll(async () => {
  t = await startTestServer();
  ({ sdk, stop: stopSdk } = await initWeaveSdk({
    server: t,
    project: PROJECT,
    onExchange: ({ method, url, res }) => seen.push({ method, path: url.pathname, status: res.status }),
  }));
});

afterAll(async () => {
  stopSdk?.();
  await t?.close();
});

/** Waits for the SDK to send its queued batches, failing fast if Weft keeps refusing them. */
async function flush(): Promise<void> {
  await waitForSdkBatches(sdk, () => `requests so far: ${JSON.stringify(seen)}`);
  const batches = seen.filter((r) => r.path === '/call/upsert_batch');
  expect(batches.length).toBeGreaterThan(0);
  expect(
    batches.filter((r) => r.status !== 200),
    'every /call/upsert_batch must answer 200',
  ).toEqual([]);
}

describe('weave npm SDK', () => {
  it('traces nested ops: names, inputs, outputs, parents, shared trace, timings, exceptions', async () => {
    const double = weave.op(async function double(x: number) {
      await sleep(3);
      return x * 2;
    });
    const explode = weave.op(async function explode(reason: string) {
      await sleep(3);
      throw new Error(`exploded: ${reason}`);
    });
    const fakeLlm = weave.op(
      async function fakeLlm(prompt: string) {
        await sleep(3);
        return { text: prompt.toUpperCase(), tokens: 5 };
      },
      {
        callDisplayName: (prompt: string) => `llm(${prompt})`,
        summarize: (r: { tokens: number }) => ({ usage: { 'fake-model': { prompt_tokens: 3, completion_tokens: r.tokens } } }),
      },
    );
    const pipeline = weave.op(
      async function pipeline(a: number, label: string) {
        const doubled = await double(a);
        const said = await fakeLlm(label);
        let caught = '';
        try {
          await explode('on purpose');
        } catch (err) {
          caught = (err as Error).message;
        }
        return { doubled, said: said.text, caught };
      },
      { parameterNames: ['a', 'label'] },
    );

    const result = await weave.withAttributes({ request_id: 'req-1' }, () => pipeline(21, 'hello'));
    expect(result).toEqual({ doubled: 42, said: 'HELLO', caught: 'exploded: on purpose' });
    await flush();

    const calls = await allCalls();
    expect(calls.map(opNameOf).sort()).toEqual(['double', 'explode', 'fakeLlm', 'pipeline']);
    const byName = Object.fromEntries(calls.map((c) => [opNameOf(c)!, c])) as Record<string, CallSchema>;
    const root = byName.pipeline!;
    const kids = [byName.double!, byName.fakeLlm!, byName.explode!];

    // Op refs as the SDK builds them, one per op.
    for (const c of calls) expect(c.op_name).toMatch(OP_REF);
    expect(new Set(calls.map((c) => c.op_name)).size).toBe(4);

    // Tree: one root, three children, all in the root's trace, ordered by start.
    expect(root.parent_id).toBeNull();
    for (const k of kids) {
      expect(k.parent_id).toBe(root.id);
      expect(k.trace_id).toBe(root.trace_id);
    }
    expect(calls.map((c) => c.id)).toEqual([root.id, ...kids.map((k) => k.id)]);

    // Inputs (positional args as arg0.. unless named), outputs, exceptions.
    expect(root.inputs).toEqual({ a: 21, label: 'hello' });
    expect(root.output).toEqual({ doubled: 42, said: 'HELLO', caught: 'exploded: on purpose' });
    expect(byName.double).toMatchObject({ inputs: { arg0: 21 }, output: 42, exception: null });
    expect(byName.fakeLlm).toMatchObject({ inputs: { arg0: 'hello' }, output: { text: 'HELLO', tokens: 5 }, display_name: 'llm(hello)' });
    expect(byName.explode).toMatchObject({ inputs: { arg0: 'on purpose' }, output: null, exception: 'exploded: on purpose' });

    // Attributes: the SDK's own plus those from withAttributes, on every call.
    for (const c of calls) {
      expect(c.attributes).toMatchObject({ request_id: 'req-1', weave: { source: 'js-sdk', client_version: expect.any(String) } });
      expect(c.wb_user_id).toBe('alice');
      expect(c.project_id).toBe(PROJECT);
    }

    // Timings: each call ended after it started; children inside the parent.
    for (const c of calls) {
      expect(c.ended_at).not.toBeNull();
      expect(ms(c.started_at)).toBeLessThan(ms(c.ended_at));
      expect(ms(c.started_at)).toBeGreaterThanOrEqual(ms(root.started_at));
      expect(ms(c.ended_at)).toBeLessThanOrEqual(ms(root.ended_at));
    }

    // Derived summary: status, latency, trace_name (display_name when set); usage rolled up.
    const weaveSummary = (c: CallSchema) => (c.summary as { weave: Record<string, unknown> }).weave;
    expect(weaveSummary(byName.double!)).toMatchObject({ status: 'success', trace_name: 'double' });
    expect(weaveSummary(byName.explode!)).toMatchObject({ status: 'error', trace_name: 'explode' });
    expect(weaveSummary(byName.fakeLlm!)).toMatchObject({ status: 'success', display_name: 'llm(hello)' });
    expect(weaveSummary(root)).toMatchObject({ status: 'success', trace_name: 'pipeline' });
    for (const c of calls) expect(weaveSummary(c).latency_ms).toBe(ms(c.ended_at) - ms(c.started_at));
    expect(byName.fakeLlm!.summary).toMatchObject({ usage: { 'fake-model': { prompt_tokens: 3, completion_tokens: 5, requests: 1 } } });
    expect(root.summary).toMatchObject({ usage: { 'fake-model': { prompt_tokens: 3, completion_tokens: 5, requests: 1 } } });

    // Filters the UI uses work on SDK data.
    expect((await allCalls({ trace_roots_only: true })).map((c) => c.id)).toEqual([root.id]);
    expect((await allCalls({ parent_ids: [root.id] })).map((c) => c.id)).toEqual(kids.map((k) => k.id));
    expect((await allCalls({ op_names: [byName.explode!.op_name] })).map((c) => c.id)).toEqual([byName.explode!.id]);

    // The SDK wrote calls only through /call/upsert_batch.
    const paths = new Set(seen.map((r) => r.path));
    expect(paths.has('/call/start')).toBe(false);
    expect(paths.has('/call/end')).toBe(false);
    // The op code was saved for real (file, then object), and nothing the SDK sent failed.
    expect(paths.has('/file/create')).toBe(true);
    expect(paths.has('/obj/create')).toBe(true);
    expect(seen.filter((r) => r.status >= 400)).toEqual([]);
  });

  it("reads calls back through the SDK's own stream_query client", async () => {
    const echo = weave.op(async function echo(value: string) {
      await sleep(2);
      return `echo:${value}`;
    });
    const [output, call] = await echo.invoke('ping');
    expect(output).toBe('echo:ping');
    await flush();
    const [back] = await sdk.getCalls({ call_ids: [call.id] });
    expect(back).toBeDefined();
    expect(back!.id).toBe(call.id);
    expect(back!.output).toBe('echo:ping');
    expect(back!.inputs).toEqual({ arg0: 'ping' });
    expect(back!.op_name).toMatch(/\/op\/echo:/);
    const stream = seen.filter((r) => r.path === '/calls/stream_query');
    expect(stream.at(-1)?.status).toBe(200);
  });

  it('renames a finished, already-flushed call with call.setDisplayName (POST /call/update)', async () => {
    const named = weave.op(async function named() {
      await sleep(2);
      return 1;
    });
    const [, call] = await named.invoke();
    await flush();
    await call.setDisplayName('renamed by the SDK');
    const { call: stored } = await t.alice.client.callRead({ project_id: PROJECT, id: call.id });
    expect(stored?.display_name).toBe('renamed by the SDK');
    expect((stored?.summary as { weave: Record<string, unknown> }).weave).toMatchObject({ display_name: 'renamed by the SDK' });
    expect(seen.filter((r) => r.path === '/call/update').map((r) => r.status)).toEqual([200]);
  });

  it('keeps a display name set right after the op returns, before the SDK flushed the call', async () => {
    const quick = weave.op(async function quick() {
      return 'q';
    });
    const [, call] = await quick.invoke();
    await call.setDisplayName('renamed early');
    await flush();
    const { call: stored } = await t.alice.client.callRead({ project_id: PROJECT, id: call.id });
    expect(stored?.output).toBe('q');
    expect(stored?.display_name).toBe('renamed early');
  });
});
