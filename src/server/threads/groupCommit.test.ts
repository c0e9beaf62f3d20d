import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallStartWrite } from '../store/Store.js';
import type { WriteBatch } from '../store/WriteBatch.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { GroupCommitter } from './groupCommit.js';
import { WriteTurns } from './writeTurns.js';

const PROJECT = 'acme/group';

const start = (id: string, projectId: string = PROJECT): CallStartWrite => ({
  kind: 'start',
  projectId,
  id,
  traceId: id,
  parentId: null,
  threadId: null,
  turnId: null,
  opName: 'op',
  displayName: null,
  startedAt: 1_700_000_000_000_000,
  attributesJson: '{}',
  inputsJson: '{}',
  otelDumpJson: null,
  inputRefs: [],
  wbUserId: null,
  wbRunId: null,
  wbRunStep: null,
});

describe('GroupCommitter', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-group-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (id: string) => (await store.calls.readCall({ projectId: PROJECT, id })) !== null;

  it('applies the units submitted together in one transaction and acknowledges each', async () => {
    const committer = new GroupCommitter(store);
    const ids = ['a', 'b', 'c', 'd'];
    const results = await Promise.all(ids.map((id) => committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start(id)]] }])));
    expect(results).toEqual(ids.map(() => [undefined]));
    expect(committer.counts).toEqual({ commits: 1, units: 4 });
    for (const id of ids) expect(await stored(id)).toBe(true);
  });

  it('leaves a unit queued while the retention sweep has the write turn, and commits it once the turn is back', async () => {
    const turns = new WriteTurns();
    const committer = new GroupCommitter(store, turns);
    // What the sweep's thread does before a batch (jobs/retentionWorker.ts); free, so at once.
    turns.takeSweep();
    const waiting = committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('waiting')]] }]);
    // Many turns of the event loop go by: the main thread is not blocked, and nothing commits.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(committer.counts).toEqual({ commits: 0, units: 0 });
    expect(await stored('waiting')).toBe(false);
    turns.releaseSweep();
    await waiting;
    expect(committer.counts).toEqual({ commits: 1, units: 1 });
    expect(await stored('waiting')).toBe(true);
    // The main thread gave the turn back after its commit: the sweep's thread takes it at once.
    turns.takeSweep();
    expect(turns.sweeping).toBe(true);
    turns.releaseSweep();
  });

  it('waits a turn of the event loop for the units of other clients, so they share the commit', async () => {
    const committer = new GroupCommitter(store);
    const first = committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('early')]] }]);
    await new Promise((resolve) => setImmediate(resolve));
    const second = committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('next-turn')]] }]);
    await Promise.all([first, second]);
    expect(committer.counts).toEqual({ commits: 1, units: 2 });
  });

  it('commits at once when a unit fills a commit, without waiting for more', async () => {
    const committer = new GroupCommitter(store);
    const many = Array.from({ length: 1000 }, (_, i) => start(`bulk-${i}`));
    let acknowledged = false;
    const big = committer.submit([{ group: 'calls', method: 'writeCalls', args: [many] }]).then(() => (acknowledged = true));
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged).toBe(true);
    await big;
  });

  it('fails only the bad unit, rolling back all of its writes, while the others commit', async () => {
    const committer = new GroupCommitter(store);
    const bad = null as unknown as string; // a unit whose second write throws inside its transaction
    const outcomes = await Promise.allSettled([
      committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('good-1')]] }]),
      committer.submit([
        { group: 'calls', method: 'writeCalls', args: [[start('half')]] },
        { group: 'calls', method: 'writeCalls', args: [[start('broken', bad)]] },
      ]),
      committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('good-2')]] }]),
      committer.submit([{ group: 'calls', method: 'noSuchMethod', args: [] }]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(committer.counts.commits).toBe(1);
    expect(await stored('good-1')).toBe(true);
    expect(await stored('good-2')).toBe(true);
    expect(await stored('half')).toBe(false);
  });

  it('returns what the write methods return', async () => {
    const committer = new GroupCommitter(store);
    await committer.submit([{ group: 'calls', method: 'writeCalls', args: [[start('x'), { ...start('y') }]] }]);
    const [deleted] = await committer.submit([
      { group: 'calls', method: 'deleteCalls', args: [{ projectId: PROJECT, ids: ['x', 'y'], deletedAt: 1 }] },
    ]);
    expect(deleted).toBe(2);
    const [user] = await committer.submit([
      { group: 'accounts', method: 'upsertUser', args: [{ username: 'carol', entities: ['carol-co'] }] },
    ]);
    expect(user).toMatchObject({ username: 'carol', entities: ['carol-co'] });
  });

  it('applies a forwarded write batch as one unit: all of it, or none when one write is refused', async () => {
    const committer = new GroupCommitter(store);
    const ok: WriteBatch = [
      { kind: 'calls.write', calls: [start('batched')] },
      { kind: 'calls.delete', delete: { projectId: PROJECT, ids: ['batched'], deletedAt: 2 } },
      { kind: 'calls.write', calls: [start('kept')] },
    ];
    const refused: WriteBatch = [
      { kind: 'calls.write', calls: [start('rolled-back')] },
      { kind: 'calls.write', calls: [start('broken', null as unknown as string)] },
    ];
    const [done, failed] = await Promise.allSettled([committer.submit([{ batch: ok }]), committer.submit([{ batch: refused }])]);
    expect(done).toEqual({ status: 'fulfilled', value: [[undefined, 1, undefined]] });
    expect(failed?.status).toBe('rejected');
    expect(committer.counts.commits).toBe(1);
    expect(await stored('kept')).toBe(true);
    expect(await stored('batched')).toBe(false);
    expect(await stored('rolled-back')).toBe(false);
  });
});

describe('GroupCommitter and derived thread statistics', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-group-threads-'));
    store = new SqliteStore(join(dir, 'weft.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const turn = (id: string, threadId: string, projectId: string = PROJECT): CallStartWrite => ({
    ...start(id, projectId),
    threadId,
    turnId: id,
  });

  it('counts the turns of every committed unit once, and none of a unit rolled back', async () => {
    const committer = new GroupCommitter(store);
    const outcomes = await Promise.allSettled([
      committer.submit([{ group: 'calls', method: 'writeCalls', args: [[turn('t1', 'thread-a')]] }]),
      committer.submit([{ group: 'calls', method: 'writeCalls', args: [[turn('t2', 'thread-a'), turn('t3', 'thread-b')]] }]),
      committer.submit([
        { group: 'calls', method: 'writeCalls', args: [[turn('t4', 'thread-c')]] },
        { group: 'calls', method: 'writeCalls', args: [[turn('t5', 'thread-c', null as unknown as string)]] },
      ]),
      committer.submit([{ group: 'calls', method: 'writeCalls', args: [[turn('t6', 'thread-b')]] }]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(committer.counts.commits).toBe(1);
    const threads: Record<string, number> = {};
    for await (const t of store.threads.queryThreads({ projectId: PROJECT, sortBy: [] })) threads[t.threadId] = t.turnCount;
    expect(threads).toEqual({ 'thread-a': 2, 'thread-b': 2 });
  });
});
