/**
 * Durability and atomicity of the real `weft serve` process: an acknowledged write survives
 * `kill -9` (no shutdown hook runs), and a request applies fully or not at all.
 *
 * The server is started exactly as a user would (`node bin/weft.js serve`) on a temporary
 * data directory and a free port (PORT=0, the URL is read from its start-up line). The
 * account is created with the CLI (`weft user add`, `weft key create`) on the same directory.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WeftClient } from '../client/index.js';
import { toStartWrite } from './domain/calls/calls.js';
import { openStore } from './store/openStore.js';
import { BIN, ROOT, spawnWeftServe, weftEnv } from './testing/serveProcess.js';

const ENTITY = 'carol-co';

let dataDir: string;
let apiKey: string;
const running = new Set<ChildProcess>();

function env(): NodeJS.ProcessEnv {
  return weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_STORE: 'sqlite', WEFT_SQLITE_SYNC: 'normal', WEFT_ADMIN_PASSWORD: 'durability-admin' });
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env: env() });
  return stdout;
}

interface ServerProcess {
  child: ChildProcess;
  url: string;
  client: WeftClient;
}

/** Spawns `weft serve` and resolves once it prints the URL it listens on. */
async function serve(): Promise<ServerProcess> {
  const { child, url } = await spawnWeftServe(env());
  running.add(child);
  child.once('exit', () => running.delete(child));
  return { child, url, client: createClient({ baseUrl: url, auth: { username: 'api', password: apiKey } }) };
}

/** `kill -9`: no exit handler, no checkpoint, no close. */
async function killHard(server: ServerProcess): Promise<void> {
  const exited = once(server.child, 'exit');
  expect(server.child.kill('SIGKILL')).toBe(true);
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  expect(code).toBeNull();
  expect(signal).toBe('SIGKILL');
}

const start = (project_id: string, id: string, extra: Record<string, unknown> = {}) => ({
  project_id,
  id,
  op_name: 'step',
  started_at: '2024-06-01T10:00:00Z',
  attributes: {},
  inputs: { id },
  ...extra,
});
const end = (project_id: string, id: string, extra: Record<string, unknown> = {}) => ({
  project_id,
  id,
  ended_at: '2024-06-01T10:00:01.25Z',
  summary: {},
  output: `out-${id}`,
  ...extra,
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-durability-'));
  expect(await cli('user', 'add', 'carol', '--entity', ENTITY, '--password', 'carol-pw')).toContain('carol');
  apiKey = (await cli('key', 'create', '--user', 'carol')).trim();
  expect(apiKey).toMatch(/^[a-z0-9]{40}$/);
});

afterEach(async () => {
  // Only the servers this file spawned, by their handle.
  for (const child of running) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 of weft serve', () => {
  it('keeps every acknowledged write: batches, starts, ends, early ends, updates and deletes', async () => {
    const project_id = `${ENTITY}/durable`;
    const first = await serve();

    const ids = Array.from({ length: 100 }, (_, i) => `b${String(i).padStart(3, '0')}`);
    const batch = await first.client.callUpsertBatch({
      batch: ids.flatMap((id, i) => [
        { mode: 'start' as const, req: { start: start(project_id, id, { trace_id: 'trace-1', parent_id: i === 2 ? 'b001' : null }) } },
        { mode: 'end' as const, req: { end: end(project_id, id) } },
      ]),
    });
    expect(batch.res).toHaveLength(200);
    await first.client.callStart({ start: start(project_id, 'single') });
    await first.client.callEnd({ end: end(project_id, 'single', { exception: 'boom' }) });
    await first.client.callEnd({ end: end(project_id, 'early', { output: 'arrived first' }) });
    await first.client.callUpdate({ project_id, call_id: 'b000', display_name: 'renamed' });
    expect(await first.client.callsDelete({ project_id, call_ids: ['b001'] })).toEqual({ num_deleted: 2 });
    await first.client.callStart({ start: start(project_id, 'last', { inputs: { acknowledged: 'just before the kill' } }) });

    await killHard(first);
    const second = await serve();

    // The account and its key survived too.
    expect(await second.client.whoami({})).toMatchObject({ username: 'carol', entities: [ENTITY] });
    // 100 batched − 2 deleted + single + last.
    expect((await second.client.callsQueryStats({ project_id })).count).toBe(100);
    const b050 = (await second.client.callRead({ project_id, id: 'b050' })).call;
    expect(b050).toMatchObject({
      inputs: { id: 'b050' },
      output: 'out-b050',
      ended_at: '2024-06-01T10:00:01.250000Z',
      trace_id: 'trace-1',
      wb_user_id: 'carol',
      summary: { weave: { status: 'success', latency_ms: 1250, trace_name: 'step' } },
    });
    expect((await second.client.callRead({ project_id, id: 'b000' })).call?.display_name).toBe('renamed');
    expect((await second.client.callRead({ project_id, id: 'b001' })).call).toBeNull();
    expect((await second.client.callRead({ project_id, id: 'b002' })).call).toBeNull();
    expect((await second.client.callRead({ project_id, id: 'single' })).call).toMatchObject({
      exception: 'boom',
      summary: { weave: { status: 'error' } },
    });
    expect((await second.client.callRead({ project_id, id: 'last' })).call?.inputs).toEqual({ acknowledged: 'just before the kill' });

    // The early end was kept on disk: its start now completes the call.
    expect((await second.client.callRead({ project_id, id: 'early' })).call).toBeNull();
    await second.client.callStart({ start: start(project_id, 'early') });
    expect((await second.client.callRead({ project_id, id: 'early' })).call).toMatchObject({
      output: 'arrived first',
      summary: { weave: { status: 'success' } },
    });

    const rows: string[] = [];
    for await (const c of second.client.callsStreamQuery({ project_id, filter: { trace_ids: ['trace-1'] } })) rows.push(c.id);
    expect(rows).toHaveLength(98);
    expect(rows).not.toContain('b001');

    const [info] = await second.client.projectsInfo({ project_ids: [project_id] });
    expect(info).toMatchObject({ external_project_id: project_id, call_count: 101 });

    // A graceful stop (SIGTERM) closes the store and exits 0.
    const exited = once(second.child, 'exit');
    second.child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  }, 120_000); // two `weft serve` starts, each booting its request threads: slow on a busy machine
});

describe('all-or-nothing requests', () => {
  it('writes nothing for an upsert_batch with one invalid item, before and after a restart', async () => {
    const project_id = `${ENTITY}/atomic`;
    const first = await serve();
    const items = [
      { mode: 'start', req: { start: start(project_id, 'ok-1') } },
      { mode: 'end', req: { end: end(project_id, 'ok-1') } },
      { mode: 'start', req: { start: start(project_id, 'ok-2') } },
    ];
    const invalid = { mode: 'start', req: { start: start(project_id, 'bad', { started_at: 'not a date' }) } };
    const res = await fetch(`${first.url}/call/upsert_batch`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ batch: [...items, invalid] }),
    });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[] }[] };
    expect(detail[0]?.loc).toEqual(['body', 'batch', 3, 'req', 'start', 'started_at']);

    const empty = async (server: ServerProcess) => {
      expect((await server.client.callsQueryStats({ project_id })).count).toBe(0);
      expect((await server.client.callRead({ project_id, id: 'ok-1' })).call).toBeNull();
      expect(await server.client.projectsInfo({ project_ids: [project_id] })).toEqual([]);
    };
    await empty(first);
    await killHard(first);
    const second = await serve();
    await empty(second);

    // The same items without the invalid one are accepted: only the bad item spoilt the batch.
    const ok = await second.client.callUpsertBatch({ batch: items as Parameters<WeftClient['callUpsertBatch']>[0]['batch'] });
    expect(ok.res).toEqual([{ id: 'ok-1', trace_id: expect.any(String) }, {}, { id: 'ok-2', trace_id: expect.any(String) }]);
    expect((await second.client.callsQueryStats({ project_id })).count).toBe(2);
  }, 120_000); // two `weft serve` starts, each booting its request threads: slow on a busy machine

  it('rolls back a store write that fails part-way through, and stays rolled back on reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-atomic-store-'));
    try {
      const valid = toStartWrite(
        { project_id: 'e/p', id: 'first', trace_id: 't', op_name: 'op', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
        'u',
      );
      // calls.id is NOT NULL: the second write fails inside the transaction, after the first ran.
      const broken: typeof valid = { ...valid, id: null as unknown as string };
      let store = await openStore({ kind: 'sqlite', dataDir: dir });
      await expect(store.calls.writeCalls([valid, broken])).rejects.toThrow();
      expect(await store.calls.readCall({ projectId: 'e/p', id: 'first' })).toBeNull();
      expect(await store.projects.listProjects({ entities: 'all' })).toEqual([]);
      await store.close();

      store = await openStore({ kind: 'sqlite', dataDir: dir });
      expect(await store.calls.readCall({ projectId: 'e/p', id: 'first' })).toBeNull();
      await store.calls.writeCalls([valid]);
      expect((await store.calls.readCall({ projectId: 'e/p', id: 'first' }))?.id).toBe('first');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
