/**
 * A sharded ClickHouse cluster, for real: two engine processes on 127.0.0.1, each a shard of
 * cluster `weft` (remote_servers, macros; the Distributed tables reach each other over the
 * native TCP port). `weft migrate` applies the `sharded` layout (clusterLayout.ts) node by node,
 * since this engine refuses ON CLUSTER, and a Weft store on each node writes and reads through
 * the Distributed tables: the calls' parts, objects, feedback, prices and the jobs' consensus
 * slots, written through either node, read the same from both.
 *
 * Replication itself cannot run here: the npm engine (clickhouse-local) has no interserver
 * listener, so a Replicated table is created in its in-process testkeeper but stays read-only.
 * What is checked of the replicated layouts is that their DDL is accepted: every CREATE
 * succeeds (engine arguments, Keeper path and macros included), and every ALTER and every
 * `ON CLUSTER` form parses.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  findLibChdb,
  freePort,
  startClickHouseEngine,
  TEST_ENGINE_SETTINGS,
  type ClickHouseEngine,
} from '../../../../scripts/clickhouseEngine.js';
import { testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0 } from '../conformance/callWrites.js';
import { describeMultiWriterConformance } from '../conformance/multiWriter.conformance.js';
import type { CallRecord, CallsQuery, Store } from '../Store.js';
import { ClickHouseDatabase, num } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { rewriteStatement, type ClusterSettings } from './clusterLayout.js';
import { proposeSlot } from './consensus.js';
import { migrateClickHouse } from './migrate.js';
import { clickhouseMigrations, SCHEMA_TABLE } from './migrations/index.js';

/** Node by node: this engine answers ON CLUSTER with "Replicated DDL queries are disabled". */
const SHARDED: ClusterSettings = { layout: 'sharded', cluster: 'weft', onCluster: false };

/** The configuration both nodes share but for their shard macro; testkeeper lets Replicated tables be created. */
const nodeConfig = (tcpPorts: number[], shard: string, usersFile: string) => `<clickhouse>
  <remote_servers><weft>
    ${tcpPorts.map((p) => `<shard><replica><host>127.0.0.1</host><port>${p}</port></replica></shard>`).join('\n    ')}
  </weft></remote_servers>
  <macros><shard>${shard}</shard><replica>r1</replica></macros>
  <zookeeper><implementation>testkeeper</implementation></zookeeper>
  <users_config>${usersFile}</users_config>
</clickhouse>`;

/**
 * This engine's native TCP handler aborts the whole process when a peer drops a connection it
 * cancelled (a read that stops early, `LIMIT 1` on a Distributed table); reading every shard over
 * TCP, the local one too, avoids those drops. A real server survives them: see docs/clickhouse.md.
 */
const NODE_USERS = `<clickhouse>
  <profiles><default><prefer_localhost_replica>0</prefer_localhost_replica></default></profiles>
  <users><default><password></password><profile>default</profile><networks><ip>127.0.0.1</ip></networks></default></users>
</clickhouse>`;

/** `n` ports free now and distinct from each other (an engine binds its HTTP port after the others are chosen). */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

const canRun = testBackends().some((b) => b.name === 'clickhouse') && findLibChdb() !== null;

// Every DDL statement and query crosses processes here, on a machine shared with other work.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

describe.runIf(canRun)('a sharded ClickHouse cluster of two engine processes', () => {
  const engines: ClickHouseEngine[] = [];
  const dirs: string[] = [];
  let urls: [string, string];
  /** One Weft replica on each node, sharing the database migrated in beforeAll. */
  let a: ClickHouseStore;
  let b: ClickHouseStore;

  /** A fresh database in the sharded layout, migrated on each node (the two at once). */
  async function shardedDatabase(): Promise<string> {
    const database = `weft_c_${randomBytes(6).toString('hex')}`;
    await Promise.all(urls.map((url) => migrateClickHouse({ url, database }, SHARDED)));
    return database;
  }

  beforeAll(async () => {
    const [httpA, httpB, ...tcpPorts] = await distinctFreePorts(4);
    const started = await Promise.allSettled(
      tcpPorts.map((tcpPort, i) => {
        const dataDir = mkdtempSync(join(tmpdir(), `weft-cluster-${i + 1}-`));
        dirs.push(dataDir);
        const usersFile = join(dataDir, 'weft-users.xml');
        writeFileSync(usersFile, NODE_USERS);
        const httpPort = i === 0 ? httpA : httpB;
        return startClickHouseEngine({
          dataDir,
          httpPort,
          tcpPort,
          config: nodeConfig(tcpPorts, `0${i + 1}`, usersFile),
          settings: TEST_ENGINE_SETTINGS,
        });
      }),
    );
    for (const s of started) if (s.status === 'fulfilled') engines.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    urls = [engines[0]!.url, engines[1]!.url];
    const database = await shardedDatabase();
    a = await ClickHouseStore.open({ url: urls[0], database });
    b = await ClickHouseStore.open({ url: urls[1], database });
  });

  // The engines' data directories go with them, databases included.
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await Promise.all(engines.map((e) => e.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Rows of a table on one node only (its shard's part). */
  async function onNode(node: 0 | 1, sql: string): Promise<number> {
    const db = new ClickHouseDatabase({ url: urls[node], database: a.db.database });
    try {
      return num((await db.get<{ n: string }>(sql))?.n);
    } finally {
      await db.close();
    }
  }

  const PROJECTS = ['acme/p0', 'acme/p1', 'acme/p2'];
  const CALLS_PER_PROJECT = 30;

  async function allCalls(store: Store, projectId: string, page?: { limit: number; offset: number }): Promise<CallRecord[]> {
    const out: CallRecord[] = [];
    const sortBy = [{ field: 'started_at', direction: 'asc' as const }];
    for await (const c of store.calls.queryCalls({ projectId, sortBy, ...page })) out.push(c);
    return out;
  }

  it('routes call parts written through either node to one shard each, so FINAL from either node sees every call complete', async () => {
    // Starts through node 1, ends through node 2 in the opposite order, a rename and a delete.
    const ids = PROJECTS.flatMap((p) =>
      Array.from({ length: CALLS_PER_PROJECT }, (_, i) => ({ p, id: `c${String(i).padStart(3, '0')}`, i })),
    );
    for (let i = 0; i < ids.length; i += 30) {
      await a.calls.writeCalls(ids.slice(i, i + 30).map(({ p, id, i: n }) => startWrite(p, id, { startedAt: T0 + n * SECOND })));
    }
    const reversed = [...ids].reverse();
    for (let i = 0; i < reversed.length; i += 30) {
      await b.calls.writeCalls(reversed.slice(i, i + 30).map(({ p, id, i: n }) => endWrite(p, id, { endedAt: T0 + (n + 1) * SECOND })));
    }
    await a.calls.updateCallDisplayName({ projectId: 'acme/p1', id: 'c005', displayName: 'renamed' });
    expect(await b.calls.deleteCalls({ projectId: 'acme/p2', ids: ['c000'], deletedAt: T0 + 500 * SECOND })).toBe(1);

    // Both shards hold some of the calls (the key spreads them), and no call's rows are split.
    const perShard = [
      await onNode(0, 'SELECT uniqExact(project_id, id) AS n FROM calls_local'),
      await onNode(1, 'SELECT uniqExact(project_id, id) AS n FROM calls_local'),
    ];
    expect(perShard.every((n) => n > 0)).toBe(true);
    expect(perShard[0]! + perShard[1]!).toBe(ids.length);

    for (const store of [a, b]) {
      for (const p of PROJECTS) {
        const expected = p === 'acme/p2' ? CALLS_PER_PROJECT - 1 : CALLS_PER_PROJECT;
        const calls = await allCalls(store, p);
        expect(calls).toHaveLength(expected);
        expect(calls.every((c) => c.ended_at !== null && c.started_at !== null)).toBe(true);
        expect(await store.calls.countCalls({ projectId: p })).toBe(expected);
        // Pages of 7 through the Distributed table put together are the whole list, in order.
        const paged: CallRecord[] = [];
        for (let offset = 0; offset < expected; offset += 7) paged.push(...(await allCalls(store, p, { limit: 7, offset })));
        expect(paged.map((c) => c.id)).toEqual(calls.map((c) => c.id));
      }
      expect((await store.calls.readCall({ projectId: 'acme/p1', id: 'c005' }))?.display_name).toBe('renamed');
      expect(await store.calls.readCall({ projectId: 'acme/p2', id: 'c000' })).toBeNull();
      const projects = await store.projects.listProjects({ entities: 'all', projectIds: PROJECTS });
      expect(projects.map((p) => [p.projectId, p.callCount]).sort()).toEqual([
        ['acme/p0', CALLS_PER_PROJECT],
        ['acme/p1', CALLS_PER_PROJECT],
        ['acme/p2', CALLS_PER_PROJECT - 1],
      ]);
    }
  });

  it('computes thread statistics, search and attribute filters from turn parts written through either node (facts computed on the shards)', async () => {
    const P = 'acme/threads';
    const turns = Array.from({ length: 12 }, (_, i) => `turn${String(i).padStart(2, '0')}`);
    await a.calls.writeCalls(
      turns.map((id, i) =>
        startWrite(P, id, {
          threadId: `th${i % 3}`,
          turnId: id,
          startedAt: T0 + i * SECOND,
          inputsJson: JSON.stringify({ q: `question${i}` }),
          attributesJson: JSON.stringify({ env: i % 6 === 1 ? 'prod' : 'dev' }),
        }),
      ),
    );
    await b.calls.writeCalls(
      turns.map((id, i) =>
        endWrite(P, id, {
          endedAt: T0 + (i + 2) * SECOND,
          outputJson: JSON.stringify({ a: `answer${i}` }),
          summaryJson: JSON.stringify({
            status_counts: { error: i === 4 ? 1 : 0 },
            usage: { 'gpt-4o': { prompt_tokens: i, completion_tokens: 1 } },
          }),
        }),
      ),
    );
    await b.calls.deleteCalls({ projectId: P, ids: ['turn00'], deletedAt: T0 + 99 * SECOND });
    for (const store of [a, b]) {
      const threads = [];
      for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }] }))
        threads.push(t);
      expect(threads.map((t) => [t.threadId, t.turnCount, t.finishedTurnCount, t.errorCount, t.totalTokens, t.p50TurnDurationMs])).toEqual([
        ['th0', 3, 3, 0, 3 + 6 + 9 + 3, 2000],
        ['th1', 4, 4, 1, 1 + 4 + 7 + 10 + 4, 2000],
        ['th2', 4, 4, 0, 2 + 5 + 8 + 11 + 4, 2000],
      ]);
      // A page is found in one pass over the shards and its rows computed in a second.
      const page = [];
      for await (const t of store.threads.queryThreads({
        projectId: P,
        sortBy: [{ field: 'total_tokens', direction: 'desc' }],
        limit: 2,
        offset: 1,
      }))
        page.push([t.threadId, t.turnCount, t.totalTokens]);
      expect(page).toEqual([
        ['th1', 4, 26],
        ['th0', 3, 21],
      ]);
      // A turn's text and attributes (thread_turns, migration 11) from its start on one node and its end on the other.
      const matching = async (filter: { search?: string; attributes?: Record<string, string> }) => {
        const ids = [];
        for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }], ...filter }))
          ids.push(t.threadId);
        return ids;
      };
      expect(await matching({ search: 'question answer5' })).toEqual(['th2']);
      expect(await matching({ search: 'answer0' })).toEqual([]);
      expect(await matching({ attributes: { env: 'prod' } })).toEqual(['th1']);
    }
  });

  it('reads a trace, listed calls and a start-time window through the Distributed tables (ids found before FINAL)', async () => {
    const P = 'acme/traces';
    // 250 calls: a root and its children in trace t0, the others roots of their own; starts through node 1, ends through node 2.
    const ids = Array.from({ length: 250 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const parent = (i: number) => (i > 0 && i < 20 ? 'k000' : null);
    await a.calls.writeCalls(
      ids.map((id, i) =>
        startWrite(P, id, {
          traceId: parent(i) || i === 0 ? 't0' : id,
          parentId: parent(i),
          threadId: i % 50 === 0 ? 'th' : null,
          startedAt: T0 + i * SECOND,
        }),
      ),
    );
    await b.calls.writeCalls(ids.map((id, i) => endWrite(P, id, { endedAt: T0 + (i + 1) * SECOND })));
    await b.calls.updateCallDisplayName({ projectId: P, id: 'k007', displayName: 'renamed' });
    const list = async (store: Store, q: Partial<CallsQuery>) => {
      const out: CallRecord[] = [];
      for await (const c of store.calls.queryCalls({ projectId: P, sortBy: [{ field: 'started_at', direction: 'desc' }], ...q }))
        out.push(c);
      return out.map((c) => c.id);
    };
    for (const store of [a, b]) {
      const spans = await store.calls.traceSpans({ projectId: P, traceId: 't0', limit: 100 });
      expect(spans.map((s) => s.id)).toEqual(ids.slice(0, 20));
      expect(spans.find((s) => s.id === 'k007')?.displayName).toBe('renamed');
      expect(await list(store, { filter: { trace_ids: ['t0'] }, limit: 5 })).toEqual(['k019', 'k018', 'k017', 'k016', 'k015']);
      expect(await list(store, { filter: { parent_ids: ['k000'] }, limit: 3, offset: 1 })).toEqual(['k018', 'k017', 'k016']);
      expect(await list(store, { filter: { thread_ids: ['th'] } })).toEqual(['k200', 'k150', 'k100', 'k050', 'k000']);
      // The newest 10 of 250 starts: read from the window of the newest 200 (calls.ts pageByStart).
      expect(await list(store, { limit: 10 })).toEqual(ids.slice(240).reverse());
      expect(await list(store, { filter: { trace_roots_only: true }, limit: 3, offset: 227 })).toEqual(['k022', 'k021', 'k020']);
    }
  });

  it('numbers object versions and keeps feedback the same whichever node wrote them', async () => {
    const P = 'acme/objects';
    const object = (digest: string, createdAt: number) => ({
      projectId: P,
      objectId: 'model',
      digest,
      kind: 'object' as const,
      baseObjectClass: 'Model',
      leafObjectClass: 'Model',
      valJson: JSON.stringify({ digest }),
      sizeBytes: 20,
      wbUserId: 'alice',
      createdAt,
    });
    await a.objects.createObject(object('d1', T0));
    await b.objects.createObject(object('d2', T0 + SECOND));
    await a.objects.createObject(object('d3', T0 + 2 * SECOND));
    await b.objects.setAliases({ projectId: P, objectId: 'model', digest: 'd2', aliases: ['prod'], createdAt: T0 + 3 * SECOND });
    await a.objects.deleteObjects({ projectId: P, objectId: 'model', digests: ['d3'], deletedAt: T0 + 4 * SECOND });
    const feedback = (id: string, emoji: string) => ({
      projectId: P,
      id,
      weaveRef: `weave:///${P}/object/model:d1`,
      wbUserId: 'alice',
      creator: null,
      createdAt: T0 + 5 * SECOND,
      feedbackType: 'wandb.reaction.1',
      payloadJson: JSON.stringify({ emoji }),
      annotationRef: null,
      runnableRef: null,
      callRef: null,
      triggerRef: null,
      queueId: null,
    });
    await b.feedback.createFeedback([feedback('f1', '👍'), feedback('f2', '👎')]);
    await a.feedback.replaceFeedback({ projectId: P, feedbackId: 'f2', row: feedback('f3', '🎉') });
    for (const store of [a, b]) {
      const versions = await store.objects.queryObjects({ projectId: P });
      expect(versions.map((v) => [v.digest, v.versionIndex, v.isLatest])).toEqual([
        ['d1', 0, false],
        ['d2', 1, true],
      ]);
      expect((await store.objects.readObject({ projectId: P, objectId: 'model', version: { alias: 'prod' } }))?.digest).toBe('d2');
      const rows = await store.feedback.queryFeedback({ projectId: P });
      expect(rows.map((r) => r.id).sort()).toEqual(['f1', 'f3']);
    }
  });

  it('decides a consensus slot once when proposals race through both nodes (the Distributed insert keeps the deduplication token)', async () => {
    const ref = { table: 'job_slots', keyColumn: 'job_id', key: 'job-race', slot: 1 } as const;
    const row = { action: 'claim', at: T0, error: null, result: null };
    const results = await Promise.all([a, b, a, b].map((s, i) => proposeSlot(s.db, ref, { ...row, owner: `o${i}` })));
    expect(results.filter((r) => r.won)).toHaveLength(1);
    expect(new Set(results.map((r) => r.decided?.token)).size).toBe(1);
    // The slot tables are never spread: every row is on the first shard.
    expect(await onNode(1, "SELECT count() AS n FROM job_slots_local WHERE job_id = 'job-race'")).toBe(0);
    expect(await onNode(0, "SELECT count() AS n FROM job_slots_local WHERE job_id = 'job-race'")).toBe(1);
  });

  // Two writers on two nodes converge to one writer's result (on a database of its own each).
  describeMultiWriterConformance(
    async () => {
      const store = await ClickHouseStore.open({ url: urls[1], database: await shardedDatabase() });
      return { store, close: () => store.close() };
    },
    async () => {
      const database = await shardedDatabase();
      const [x, y] = [await ClickHouseStore.open({ url: urls[0], database }), await ClickHouseStore.open({ url: urls[1], database })];
      return { a: x, b: y, close: async () => void (await Promise.all([x.close(), y.close()])) };
    },
  );

  it('sweeps the audit log past its retention (a Distributed table refuses DELETE, so the sweep deletes from the local table)', async () => {
    // Node by node, as migrated here: the sweep runs on the node it talks to, and the audit log
    // lives on the first shard (node 0). Rows written through the other node.
    const first = await ClickHouseStore.open({ url: urls[0], database: a.db.database, onCluster: false });
    try {
      const entry = {
        actor: { username: 'ann', keyId: null, via: 'password' },
        address: '',
        action: 'key.revoke',
        target: 'k',
        entity: null,
        projectId: null,
        outcome: 'ok',
      };
      for (let i = 0; i < 4; i++) await b.audit.append(entry, T0 + i);
      expect(await first.audit.sweep(T0 + 2)).toBe(2);
      for (const store of [a, b]) expect((await store.audit.query({ entities: 'all' }, 10)).map((r) => r.time)).toEqual([T0 + 3, T0 + 2]);
      expect(await onNode(0, 'SELECT count() AS n FROM audit_log_local')).toBe(2);
      expect(await first.audit.sweep(T0 + 2)).toBe(0);
    } finally {
      await first.close();
    }
  });

  it('sends no quorum settings on the sharded layout: its tables are not Replicated', async () => {
    expect(await a.db.hasReplicatedTables()).toBe(false);
    expect(a.db.quorum).toBe(false);
  });

  it('accepts the replicated layouts’ DDL (replication itself cannot run in this engine)', async () => {
    for (const layout of ['replicated', 'replicated-sharded'] as const) {
      const database = `weft_r_${randomBytes(6).toString('hex')}`;
      const admin = new ClickHouseDatabase({ url: urls[0], database: 'default' });
      await admin.command(`CREATE DATABASE ${database}`);
      await admin.close();
      const db = new ClickHouseDatabase({ url: urls[0], database });
      try {
        const settings: ClusterSettings = { layout, cluster: 'weft', onCluster: false };
        const statements = [SCHEMA_TABLE, ...clickhouseMigrations.flatMap((m) => m.statements)].flatMap((s) =>
          rewriteStatement(s, database, settings),
        );
        // An ALTER cannot run on a read-only replica, so only its syntax is checked, and so is a
        // view's (it reads columns the ALTERs add); the sharded run above applies them for real.
        for (const sql of statements) await db.command(sql.startsWith('CREATE TABLE') ? sql : `EXPLAIN AST ${sql}`);
        // The ON CLUSTER forms, which this engine refuses to run ("Replicated DDL queries are disabled"), parse.
        const onCluster = clickhouseMigrations.flatMap((m) =>
          m.statements.flatMap((s) => rewriteStatement(s, database, { ...settings, onCluster: true })),
        );
        for (const sql of onCluster) await db.command(`EXPLAIN AST ${sql}`);
        const tables = await db.all<{ name: string; engine: string }>(
          'SELECT name, engine FROM system.tables WHERE database = currentDatabase()',
        );
        expect(tables.length).toBeGreaterThan(30);
        // What WEFT_CLICKHOUSE_QUORUM=auto goes by.
        expect(await db.hasReplicatedTables()).toBe(true);
        for (const t of tables) {
          expect(t.engine).toMatch(t.name.endsWith('_local') || layout === 'replicated' ? /^Replicated\w*MergeTree$/ : /^Distributed$/);
        }
        // Created in testkeeper, but read-only: there is no interserver listener to replicate through.
        const replicas = await db.all<{ is_readonly: number; zookeeper_path: string }>(
          "SELECT is_readonly, zookeeper_path FROM system.replicas WHERE database = currentDatabase() AND table IN ('calls', 'calls_local')",
        );
        expect(replicas).toHaveLength(1);
        expect(replicas[0]!.is_readonly).toBe(1);
        expect(replicas[0]!.zookeeper_path).toMatch(new RegExp(`^/clickhouse/tables/01/${database}/calls`));
      } finally {
        await db.close();
      }
    }
  });
});
