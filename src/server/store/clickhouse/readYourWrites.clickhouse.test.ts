/**
 * Read-your-writes on a replicated cluster (docs/clickhouse.md "Read-your-writes on a
 * replicated cluster"): the statements of accounts, keys, sessions, jobs, the consensus slots
 * and the v2 evaluation API carry `insert_quorum`, `insert_quorum_parallel=0` and
 * `select_sequential_consistency=1`, and the ordinary ingest path does not.
 *
 * The npm engine cannot replicate (no Keeper server, no interserver listener: a Replicated
 * table stays read-only), so what is checked here is what each statement carries, on the real
 * engine, through a proxy that records every statement with the settings in its URL. A
 * statement that lost its settings fails the test; the engine accepting them on every statement
 * kind (inserts, INSERT ... SELECT, FINAL reads, deduplicated consensus inserts) is checked
 * too, since every request here reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseFaultProxy, type FaultProxy, type RecordedStatement } from '../../testing/clickhouseFaultProxy.js';
import { publishEvaluation } from '../../testing/evaluationFixture.js';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import { startWrite, T0 } from '../conformance/callWrites.js';
import { READ_YOUR_WRITES_SETTINGS } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { proposeSlot } from './consensus.js';

/** The tables whose every statement must read its own writes. */
const CONSISTENT_TABLES = new Set([
  'users',
  'user_roles',
  'api_keys',
  'sessions',
  'accounts_epoch',
  'oidc_identities',
  'jobs',
  'jobs_open',
  'job_slots',
  'job_heartbeats',
  'job_progress',
  'job_cancels',
  'monitor_sweeps',
]);

const tablesOf = (sql: string): string[] => [...sql.matchAll(/\b(?:FROM|INTO|JOIN)\s+(\w+)/gi)].map((m) => m[1]!);
const isInsert = (sql: string) => /^\s*INSERT\b/i.test(sql);

/** What a statement lacks of READ_YOUR_WRITES_SETTINGS (an insert needs the quorum, a read the sequential consistency). */
function missing(s: RecordedStatement): string[] {
  const wanted = isInsert(s.sql)
    ? { insert_quorum: 'auto', insert_quorum_parallel: '0', insert_quorum_timeout: String(READ_YOUR_WRITES_SETTINGS.insert_quorum_timeout) }
    : { select_sequential_consistency: '1' };
  return Object.entries(wanted)
    .filter(([k, v]) => s.settings[k] !== v)
    .map(([k, v]) => `${k}=${v} (sent ${s.settings[k] ?? 'nothing'})`);
}

/** The statements that name a table of `tables` but lack a setting, as readable lines. */
function lacking(statements: RecordedStatement[], tables: Set<string>): string[] {
  return statements
    .filter((s) => tablesOf(s.sql).some((t) => tables.has(t)) && missing(s).length > 0)
    .map((s) => `${s.sql.replace(/\s+/g, ' ').slice(0, 100)} — lacks ${missing(s).join(', ')}`);
}

const hasQuorum = (s: RecordedStatement) => 'insert_quorum' in s.settings || 'select_sequential_consistency' in s.settings;

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('statements that must read their own writes on a replicated cluster', () => {
    let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
    let proxy: FaultProxy;
    let store: ClickHouseStore;
    beforeAll(async () => {
      db = await createTempClickHouseDatabase();
      proxy = await startClickHouseFaultProxy(db.url);
      store = await ClickHouseStore.open({ url: proxy.url, database: db.database, quorum: 'on' });
    });
    afterAll(async () => {
      await store?.close();
      await proxy?.close();
      await db?.drop();
    });

    it('carry the quorum settings for every account, key and session change and read', async () => {
      proxy.clearStatements();
      const a = store.accounts;
      await a.upsertUser({ username: 'ryw', passwordHash: 'h1', entities: ['ryw-co'] });
      await a.upsertUser({ username: 'ryw', passwordHash: 'h2' });
      await a.setRole('ryw', 'ryw-co', 'admin');
      await a.setDefaultEntity('ryw', 'ryw-co');
      await a.createApiKey({ keyId: 'k1', username: 'ryw', keyHash: 'sha256$x', name: 'k', createdAt: T0 });
      await a.updateApiKeyHash('k1', 'sha256$y');
      expect(await a.revokeApiKey('k1', T0 + 1)).toBe(true);
      expect((await a.getApiKey('k1'))?.revokedAt).toBe(T0 + 1);
      await a.listApiKeys('ryw');
      const session = {
        sessionId: 's1',
        tokenHash: 't1',
        username: 'ryw',
        createdAt: T0,
        lastSeenAt: T0,
        expiresAt: T0 + 1e12,
        userAgent: '',
        address: '',
      };
      await a.createSession(session);
      await a.touchSession('s1', T0 + 5);
      await a.getSessionByTokenHash('t1');
      expect(await a.deleteSession('s1')).toBe(true);
      await a.deleteExpiredSessions(T0, T0);
      await a.epoch();
      await a.listUsers();
      const identity = {
        issuer: 'https://idp',
        subject: 'sub',
        username: 'ryw',
        email: null,
        emailVerified: false,
        createdAt: T0,
        lastSignInAt: T0,
      };
      await store.identities.upsertIdentity(identity);
      expect((await store.identities.getIdentity('https://idp', 'sub'))?.username).toBe('ryw');

      const seen = proxy.statements().filter((s) => tablesOf(s.sql).some((t) => CONSISTENT_TABLES.has(t)));
      // Every kind was sent: inserts, the epoch's INSERT ... SELECT and reads.
      expect(seen.filter((s) => isInsert(s.sql)).length).toBeGreaterThan(8);
      expect(seen.some((s) => /INSERT INTO accounts_epoch/.test(s.sql))).toBe(true);
      expect(seen.some((s) => /FROM api_keys FINAL/.test(s.sql))).toBe(true);
      expect(lacking(proxy.statements(), CONSISTENT_TABLES)).toEqual([]);
    });

    it('carry them for every job change and read, and for the consensus slots', async () => {
      proxy.clearStatements();
      const jobs = store.jobs;
      await jobs.enqueue({ id: 'j1', projectId: 'ryw-co/p', kind: 'test', payload: {}, createdBy: 'ryw', createdAt: T0 });
      await jobs.countOpen({ projectId: 'ryw-co/p' });
      const claimed = await jobs.claimNext({ owner: 'o1', now: T0 + 1, staleBefore: T0 - 1e9, maxAttempts: 3 });
      expect(claimed?.id).toBe('j1');
      await jobs.heartbeat({ id: 'j1', owner: 'o1', now: T0 + 2 });
      await jobs.setProgress({ id: 'j1', owner: 'o1', done: 1, total: 2 });
      await jobs.finish({ id: 'j1', owner: 'o1', status: 'succeeded', error: null, result: { ok: true }, now: T0 + 3 });
      await jobs.enqueue({ id: 'j2', projectId: 'ryw-co/p', kind: 'test', payload: {}, createdBy: 'ryw', createdAt: T0 });
      await jobs.requestCancel({ projectId: 'ryw-co/p', id: 'j2', now: T0 + 4 });
      expect((await jobs.getJob({ projectId: 'ryw-co/p', id: 'j1' }))?.status).toBe('succeeded');
      await jobs.listJobs({ projectId: 'ryw-co/p', limit: 10 });
      const slot = { table: 'monitor_sweeps', keyColumn: 'project_id', key: 'ryw-co/p', slot: 1 } as const;
      expect((await proposeSlot(store.db, slot, { upto: 1 })).won).toBe(true);

      const slots = proxy.statements().filter((s) => tablesOf(s.sql).includes('job_slots'));
      expect(slots.some((s) => isInsert(s.sql) && s.settings.insert_deduplication_token)).toBe(true);
      expect(lacking(proxy.statements(), CONSISTENT_TABLES)).toEqual([]);
    });

    it('leave the ingest path as it is: a call write carries no quorum', async () => {
      proxy.clearStatements();
      await store.calls.writeCalls([startWrite('ryw-co/p', 'c1', { startedAt: T0 })]);
      const writes = proxy.statements().filter((s) => isInsert(s.sql) && tablesOf(s.sql).includes('calls'));
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.filter(hasQuorum)).toEqual([]);
    });

    it('are sent as on one server when quorum is off, and auto finds no replicated tables here', async () => {
      const plain = await ClickHouseStore.open({ url: proxy.url, database: db.database });
      try {
        expect(plain.db.quorum).toBe(false);
        expect(plain.readYourWrites()).toBe(plain);
        proxy.clearStatements();
        await plain.accounts.getApiKey('k1');
        expect(proxy.statements().filter(hasQuorum)).toEqual([]);
      } finally {
        await plain.close();
      }
    });
  });

  describe('the v2 evaluation API over HTTP, with WEFT_CLICKHOUSE_QUORUM=on', () => {
    let proxy: FaultProxy;
    let t: TestServer;
    beforeAll(async () => {
      const env = testBackends().find((b) => b.name === 'clickhouse')!.serverEnv;
      proxy = await startClickHouseFaultProxy(env.WEFT_CLICKHOUSE_URL!);
      t = await startTestServer({ env: { ...env, WEFT_CLICKHOUSE_URL: proxy.url, WEFT_CLICKHOUSE_QUORUM: 'on' } });
    });
    afterAll(async () => {
      await t?.close();
      await proxy?.close();
    });

    /** The data tables a v2 request reads and writes, besides the accounts behind its credentials. */
    const V2_TABLES = new Set(['calls', 'calls_by_start', 'feedback', 'object_versions', 'object_creations', 'table_rows', 'tables']);

    it('reads and writes its objects, runs, predictions and scores with the quorum settings', async () => {
      proxy.clearStatements();
      const f = await publishEvaluation(t.alice.client, 'alice-co', 'ryw');
      const { evaluation_run_id } = await t.alice.client.evaluationRunCreate({ ...f.path, evaluation: f.evaluation, model: f.models.a });
      const { prediction_id } = await t.alice.client.predictionCreate({
        ...f.path,
        model: f.models.a,
        inputs: { q: 1 },
        output: 2,
        evaluation_run_id,
      });
      await t.alice.client.scoreCreate({ ...f.path, prediction_id, scorer: f.scorers.exact, value: 1, evaluation_run_id });
      await t.alice.client.predictionRead({ ...f.path, prediction_id });
      await t.alice.client.evaluationRunFinish({ ...f.path, evaluation_run_id });
      expect((await t.alice.client.evaluationRunRead({ ...f.path, evaluation_run_id })).status).toBeDefined();

      const v2 = proxy.statements().filter((s) => tablesOf(s.sql).some((table) => V2_TABLES.has(table)));
      expect(v2.some((s) => isInsert(s.sql) && tablesOf(s.sql).includes('calls'))).toBe(true);
      expect(v2.some((s) => isInsert(s.sql) && tablesOf(s.sql).includes('feedback'))).toBe(true);
      // The monitor sweeper's look for monitors runs beside the requests, in the background.
      const requests = proxy.statements().filter((s) => !/\bresume_at\b/.test(s.sql));
      expect(lacking(requests, new Set([...V2_TABLES, ...CONSISTENT_TABLES]))).toEqual([]);
    }, 180_000);

    it('but a v1 call start through the same server carries none', async () => {
      proxy.clearStatements();
      await t.alice.client.callStart({
        start: {
          project_id: 'alice-co/ryw',
          id: 'v1-call',
          trace_id: 'v1-call',
          op_name: 'op',
          started_at: new Date(T0 / 1000).toISOString(),
          attributes: {},
          inputs: {},
        },
      });
      const writes = proxy.statements().filter((s) => isInsert(s.sql) && tablesOf(s.sql).includes('calls'));
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.filter(hasQuorum)).toEqual([]);
    });
  });
});
