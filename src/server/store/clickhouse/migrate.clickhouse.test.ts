/**
 * `weft migrate` against the test run's ClickHouse server: two migrators at once converge, a
 * second run changes nothing, a migrator waits for the lock another holds and takes over one
 * whose holder died, `--dry-run` prints and changes nothing, statements run without a time
 * limit, and a replica refuses a database that was never migrated.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, weftEnv } from '../../testing/serveProcess.js';
import { testBackends } from '../../testing/tempStore.js';
import { openStore } from '../openStore.js';
import { ClickHouseDatabase, num } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { proposeSlot } from './consensus.js';
import { appliedVersion, migrateClickHouse } from './migrate.js';
import { MigrationLock } from './migrationLock.js';
import { LATEST_CLICKHOUSE_VERSION } from './migrations/index.js';

/** Runs `weft migrate` as a user would and collects what it prints. */
function weftMigrate(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'migrate', ...args], { cwd: ROOT, env: weftEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  for (const backend of testBackends().filter((b) => b.name === 'clickhouse')) {
    describe('weft migrate (ClickHouse)', () => {
      const url = backend.serverEnv.WEFT_CLICKHOUSE_URL!;
      const database = `weft_m_${randomBytes(6).toString('hex')}`;
      const env = { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: url, WEFT_CLICKHOUSE_DATABASE: database };
      afterAll(async () => {
        const admin = new ClickHouseDatabase({ url, database: 'default' });
        await admin.command(`DROP DATABASE IF EXISTS ${database} SYNC`);
        await admin.close();
      });

      it('refuses to open a database that was never migrated, and says what to run', async () => {
        await expect(ClickHouseStore.open({ url, database: 'default' })).rejects.toThrow(/weft migrate/);
      });

      it('refuses a database that does not exist in one line that says to run weft migrate', async () => {
        const missing = `weft_missing_${randomBytes(4).toString('hex')}`;
        const err = await ClickHouseStore.open({ url, database: missing }).then(
          () => null,
          (e: Error) => e,
        );
        expect(err?.message).toMatch(new RegExp(`database "${missing}" does not exist.*weft migrate`));
        expect(err?.message).not.toContain('\n');
      });

      it('sends no execution-time limit with migration statements, and waits for distributed DDL however long', async () => {
        const db = new ClickHouseDatabase({ url, database: 'default', longStatements: true });
        const row = await db.get<{ t: string; ddl: string }>(
          "SELECT toString(getSetting('max_execution_time')) AS t, toString(getSetting('distributed_ddl_task_timeout')) AS ddl",
        );
        await db.close();
        expect(row).toEqual({ t: '0', ddl: '-1' });
      });

      describe('the migration lock', () => {
        const locked = `weft_l_${randomBytes(6).toString('hex')}`;
        afterAll(async () => {
          const admin = new ClickHouseDatabase({ url, database: 'default' });
          await admin.command(`DROP DATABASE IF EXISTS ${locked} SYNC`);
          await admin.close();
        });

        it('makes a second migrator wait until the first releases it, then run from where it left off', async () => {
          await migrateClickHouse({ url, database: locked }, undefined, { to: 2 });
          const db = new ClickHouseDatabase({ url, database: locked });
          const held = await MigrationLock.acquire(db);
          let waiting!: () => void;
          const told = new Promise<void>((r) => (waiting = r));
          const second = migrateClickHouse({ url, database: locked }, undefined, { say: () => waiting() });
          await told;
          // Told it waits, and has changed nothing while the lock is held.
          expect(await appliedVersion(db)).toBe(2);
          await held.release();
          expect(await second).toMatchObject({ from: 2, to: LATEST_CLICKHOUSE_VERSION });
          await db.close();
        });

        it('runs each migration once when two migrators start together on a new database', { timeout: 120_000 }, async () => {
          const fresh = `weft_t_${randomBytes(6).toString('hex')}`;
          const results = await Promise.all([migrateClickHouse({ url, database: fresh }), migrateClickHouse({ url, database: fresh })]);
          // One applied everything; the other waited, then found nothing to do.
          expect(results.map((r) => r.from).sort()).toEqual([0, LATEST_CLICKHOUSE_VERSION]);
          const db = new ClickHouseDatabase({ url, database: fresh });
          const rows = await db.all<{ version: number; n: string }>(
            'SELECT version, count() AS n FROM weft_schema_migrations GROUP BY version ORDER BY version',
          );
          expect(rows.map((r) => [r.version, num(r.n)])).toEqual(Array.from({ length: LATEST_CLICKHOUSE_VERSION }, (_, i) => [i + 1, 1]));
          await db.command(`DROP DATABASE ${fresh} SYNC`);
          await db.close();
        });

        it('takes the lock over from a migrator that died holding it, once its lease has passed', async () => {
          const db = new ClickHouseDatabase({ url, database: locked });
          const last = await db.get<{ s: string; now: string }>(
            "SELECT max(slot) AS s, toUnixTimestamp64Micro(now64(6)) AS now FROM weft_migration_lock WHERE name = 'migrate'",
          );
          const slot = num(last!.s) + 1;
          const { won } = await proposeSlot(
            db,
            { table: 'weft_migration_lock', keyColumn: 'name', key: 'migrate', slot },
            { action: 'acquire', owner: 'killed-9', expires_at: num(last!.now) - 1 },
          );
          expect(won).toBe(true);
          const said: string[] = [];
          expect(await migrateClickHouse({ url, database: locked }, undefined, { say: (l) => said.push(l) })).toMatchObject({
            to: LATEST_CLICKHOUSE_VERSION,
          });
          expect(said).toEqual([]);
          const after = await db.all<{ slot: number; action: string; owner: string }>(
            "SELECT slot, action, owner FROM weft_migration_lock WHERE name = 'migrate' AND slot > {s:UInt32} ORDER BY slot",
            { s: slot },
          );
          expect(after.map((r) => r.action)).toEqual(['acquire', 'release']);
          expect(after[0]!.owner).not.toBe('killed-9');
          await db.close();
        });
      });

      it('gives the coordination tables TTLs, and closed job marks one of a day', async () => {
        const fresh = `weft_ttl_${randomBytes(6).toString('hex')}`;
        await migrateClickHouse({ url, database: fresh });
        const db = new ClickHouseDatabase({ url, database: fresh });
        const rows = await db.all<{ name: string; engine_full: string }>(
          'SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() ORDER BY name',
        );
        const ttl = Object.fromEntries(rows.map((r) => [r.name, /\bTTL (.*?)(?: SETTINGS |$)/.exec(r.engine_full)?.[1] ?? null]));
        for (const table of [
          'jobs',
          'job_slots',
          'job_heartbeats',
          'job_progress',
          'job_cancels',
          'jobs_open',
          'sessions',
          'annotation_item_reservations',
        ])
          expect(ttl[table], table).toMatch(/toIntervalDay/);
        expect(ttl.jobs_open).toMatch(/toIntervalDay\(1\).*WHERE is_deleted = 1/);
        await db.command(`DROP DATABASE ${fresh} SYNC`);
        await db.close();
      });

      it('prints the statements with --dry-run and changes nothing', { timeout: 120_000 }, async () => {
        const dry = `weft_d_${randomBytes(6).toString('hex')}`;
        await migrateClickHouse({ url, database: dry }, undefined, { to: 6 });
        const { code, out } = await weftMigrate({ ...env, WEFT_CLICKHOUSE_DATABASE: dry }, ['--dry-run']);
        expect(code).toBe(0);
        expect(out).toContain(`is at schema version 6; weft migrate would bring it to ${LATEST_CLICKHOUSE_VERSION}`);
        expect(out).toContain('-- migration 7: calls by start time');
        expect(out).toContain('CREATE TABLE IF NOT EXISTS calls_by_start');
        expect(out).not.toContain('-- migration 6:');
        const db = new ClickHouseDatabase({ url, database: dry });
        expect(await appliedVersion(db)).toBe(6);
        const tables = await db.all<{ name: string }>(
          "SELECT name FROM system.tables WHERE database = currentDatabase() AND name = 'calls_by_start'",
        );
        expect(tables).toEqual([]);
        await db.command(`DROP DATABASE ${dry} SYNC`);
        await db.close();
      });

      // Three `weft` processes start through tsx: slow on a busy machine, so a generous timeout.
      it('lets two replicas migrate at once, and a third run finds nothing to do', { timeout: 180_000 }, async () => {
        const [a, b] = await Promise.all([weftMigrate(env), weftMigrate(env)]);
        expect([a.code, b.code], a.out + b.out).toEqual([0, 0]);
        const again = await weftMigrate(env);
        expect(again.out).toContain(`is at schema version ${LATEST_CLICKHOUSE_VERSION}; nothing to do`);
        // What `weft serve` opens with WEFT_STORE=clickhouse, once migrated.
        const store = await openStore({ kind: 'clickhouse', dataDir: '.', clickhouseUrl: url, clickhouseDatabase: database });
        expect(store.backend).toBe('clickhouse');
        if (!(store instanceof ClickHouseStore)) throw new Error('expected a ClickHouseStore');
        await store.accounts.upsertUser({ username: 'after-migrate', entities: ['e'] });
        expect((await store.accounts.getUser('after-migrate'))?.entities).toEqual(['e']);
        const tables = await store.db.all<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase()');
        expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['calls', 'users', 'weft_schema_migrations']));
        await store.close();
      });
    });
  }
});
