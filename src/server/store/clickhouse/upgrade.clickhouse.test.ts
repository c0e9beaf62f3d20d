/**
 * Upgrading from every released ClickHouse schema version: for each version k in the migration
 * list, a database is migrated to k, written with data as a Weft of that version wrote it
 * (plain INSERTs into the tables of version k: the derived tables it kept too, and none that
 * came later), then migrated to the newest, and read through the store: the user and their
 * membership, both calls in start order, the thread's statistics and its turn's searchable text
 * (from the turns, then from the thread snapshot the first read built), the object and the
 * feedback. The list comes from the migrations, so a new migration is tested from every older
 * version without touching this file.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/tempStore.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { migrateClickHouse } from './migrate.js';
import { clickhouseMigrations, LATEST_CLICKHOUSE_VERSION } from './migrations/index.js';
import type { ClickHouseThreadsStore } from './threads.js';

const P = 'acme/upgrade';
const T0 = 1_700_000_000_000_000;
const SUMMARY = JSON.stringify({ usage: { 'gpt-4o': { input_tokens: 30, output_tokens: 12, requests: 1 } } });

/** What a Weft at schema version `k` wrote for a user, a turn with one child call, an object and a feedback. */
async function writeAsVersion(db: ClickHouseDatabase, k: number): Promise<void> {
  await db.insert('users', [{ username: 'ada', password_hash: null, is_admin: 0, default_entity: 'acme', created_at: T0, version: 1 }]);
  await db.insert('user_entities', [{ username: 'ada', entity: 'acme' }]);
  if (k >= 13) await db.insert('user_roles', [{ username: 'ada', scope: 'acme', role: 'member', version: 1, is_deleted: 0 }]);
  await db.insert('projects', [{ project_id: P, entity: 'acme', created_at: T0 }]);
  const turn = {
    project_id: P,
    id: 'turn-1',
    trace_id: 'tr-1',
    parent_id: null,
    thread_id: 'th-1',
    turn_id: 'turn-1',
    op_name: 'weave:///acme/upgrade/op/chat:x',
    op_base_name: 'chat',
    started_at: T0,
    attributes: '{"tier":"gold"}',
    inputs: '{"question":"where is the lighthouse"}',
    input_refs: '[]',
    ended_at: T0 + 2_000_000,
    output: '"by the harbour"',
    summary: SUMMARY,
    output_refs: '[]',
    part_ts: T0,
  };
  const child = {
    ...turn,
    id: 'child-1',
    parent_id: 'turn-1',
    turn_id: null,
    op_name: 'weave:///acme/upgrade/op/llm:y',
    op_base_name: 'llm',
    started_at: T0 + 1_000,
    ended_at: T0 + 1_000_000,
    attributes: '{}',
    inputs: '{}',
    output: 'null',
  };
  // The start and end of each call in one batch: one row each, as /call/upsert_batch writes them.
  await db.insert('calls', [turn, child]);
  if (k >= 7) {
    await db.insert('calls_by_start', [
      { project_id: P, started_at: turn.started_at, id: turn.id, is_root: 1 },
      { project_id: P, started_at: child.started_at, id: child.id, is_root: 0 },
    ]);
  }
  if (k >= 10) {
    const row = { project_id: P, id: turn.id, thread_id: 'th-1', started_at: turn.started_at, ended_at: turn.ended_at, summary: SUMMARY };
    if (k >= 11) {
      await db.insert(
        'thread_turns',
        [{ ...row, inputs: turn.inputs, output: turn.output, attributes: turn.attributes }],
        ['project_id', 'id', 'thread_id', 'started_at', 'ended_at', 'summary', 'inputs', 'output', 'attributes'],
      );
    } else {
      await db.insert('thread_turns', [row], ['project_id', 'id', 'thread_id', 'started_at', 'ended_at', 'summary']);
    }
  }
  if (k >= 3) {
    const object = { project_id: P, object_id: 'prompt', digest: 'd1', kind: 'object', base_object_class: null, leaf_object_class: null };
    await db.insert('object_versions', [
      { ...object, val: '{"text":"hello"}', size_bytes: 16, wb_user_id: null, created_at: T0, deleted_at: null, generation: 1, version: 1 },
    ]);
    await db.insert('object_creations', [{ project_id: P, object_id: 'prompt', digest: 'd1', generation: 1, created_at: T0, rank: 1 }]);
  }
  if (k >= 4) {
    await db.insert('feedback', [
      {
        project_id: P,
        id: 'fb-1',
        weave_ref: 'weave:///acme/upgrade/call/turn-1',
        wb_user_id: null,
        creator: 'ada',
        created_at: T0,
        feedback_type: 'wandb.reaction.1',
        payload: '{"emoji":"👍"}',
        annotation_ref: null,
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        queue_id: null,
        version: 1,
        is_deleted: 0,
      },
    ]);
  }
}

/** Reads everything writeAsVersion(k) wrote, through the store, as the newest Weft answers it. */
async function expectReadsBack(url: string, database: string, k: number): Promise<void> {
  const store = await ClickHouseStore.open({ url, database });
  try {
    const user = await store.accounts.getUser('ada');
    expect(user).toMatchObject({ entities: ['acme'], roles: { acme: 'member' }, defaultEntity: 'acme' });

    const calls = [];
    for await (const c of store.calls.queryCalls({ projectId: P, sortBy: [{ field: 'started_at', direction: 'desc' }] })) calls.push(c);
    expect(calls.map((c) => c.id)).toEqual(['child-1', 'turn-1']);
    expect(calls[1]).toMatchObject({ thread_id: 'th-1', output: 'by the harbour', inputs: { question: 'where is the lighthouse' } });
    const roots = [];
    for await (const c of store.calls.queryCalls({ projectId: P, filter: { trace_roots_only: true }, limit: 10 })) roots.push(c.id);
    expect(roots).toEqual(['turn-1']);

    const threads = [];
    for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'last_updated', direction: 'desc' }] }))
      threads.push(t);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ threadId: 'th-1', turnCount: 1, finishedTurnCount: 1, totalTokens: 42, errorCount: 0 });
    // That first read answered from the turns and started the thread snapshot's build; the
    // reads below answer from the snapshot (docs/clickhouse.md "Thread snapshots").
    await (store.threads as ClickHouseThreadsStore).snapshotsSettled();
    const again = [];
    for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'last_updated', direction: 'desc' }] }))
      again.push(t);
    expect(again).toEqual(threads);
    const found = [];
    for await (const t of store.threads.queryThreads({ projectId: P, search: 'lighthouse', sortBy: [] })) found.push(t.threadId);
    expect(found).toEqual(['th-1']);
    const byAttribute = [];
    for await (const t of store.threads.queryThreads({ projectId: P, attributes: { tier: 'gold' }, sortBy: [] }))
      byAttribute.push(t.threadId);
    expect(byAttribute).toEqual(['th-1']);

    if (k >= 3) {
      const object = await store.objects.readObject({ projectId: P, objectId: 'prompt', version: { latest: true } });
      expect(object).toMatchObject({ digest: 'd1', valJson: '{"text":"hello"}', versionIndex: 0, isLatest: true });
    }
    if (k >= 4) {
      const feedback = await store.feedback.feedbackForRefs({ projectId: P, weaveRefs: ['weave:///acme/upgrade/call/turn-1'] });
      expect(feedback.map((f) => f.id)).toEqual(['fb-1']);
    }
  } finally {
    await store.close();
  }
}

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('upgrading a ClickHouse database with data', () => {
  // Read while collecting, also when the suite is skipped (no ClickHouse selected): hence no `!`.
  const url = testBackends().find((b) => b.name === 'clickhouse')?.serverEnv.WEFT_CLICKHOUSE_URL ?? '';
  const databases: string[] = [];
  afterAll(async () => {
    const admin = new ClickHouseDatabase({ url, database: 'default' });
    for (const d of databases) await admin.command(`DROP DATABASE IF EXISTS ${d} SYNC`);
    await admin.close();
  });

  it('upgrades from a list that holds every released version', () => {
    const versions = clickhouseMigrations.map((m) => m.version);
    expect(versions).toEqual(Array.from({ length: LATEST_CLICKHOUSE_VERSION }, (_, i) => i + 1));
  });

  for (const { version: k } of clickhouseMigrations) {
    // Each builds a schema and migrates it again: tens of DDL statements.
    it(`from schema version ${k} to ${LATEST_CLICKHOUSE_VERSION}`, { timeout: 120_000 }, async () => {
      const database = `weft_up${k}_${randomBytes(4).toString('hex')}`;
      databases.push(database);
      expect(await migrateClickHouse({ url, database }, undefined, { to: k })).toMatchObject({ from: 0, to: k });
      const db = new ClickHouseDatabase({ url, database });
      try {
        await writeAsVersion(db, k);
      } finally {
        await db.close();
      }
      expect(await migrateClickHouse({ url, database })).toMatchObject({ from: k, to: LATEST_CLICKHOUSE_VERSION });
      await expectReadsBack(url, database, k);
    });
  }

  it('re-runs each migration that was cut off after its last statement but before it was recorded', { timeout: 300_000 }, async () => {
    const database = `weft_rerun_${randomBytes(4).toString('hex')}`;
    databases.push(database);
    await migrateClickHouse({ url, database }, undefined, { to: 1 });
    const db = new ClickHouseDatabase({ url, database });
    try {
      await writeAsVersion(db, 1);
      for (const m of clickhouseMigrations.slice(1)) {
        // Every statement of migration m ran (the strongest "half-done": any prefix is less),
        // then the migrator died: the next weft migrate runs the whole migration again.
        for (const statement of m.statements) await db.command(statement);
        expect(await migrateClickHouse({ url, database }, undefined, { to: m.version })).toMatchObject({ from: m.version - 1 });
      }
    } finally {
      await db.close();
    }
    await expectReadsBack(url, database, 1);
  });
});
