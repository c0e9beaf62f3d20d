/**
 * `weft migrate` against the test run's ClickHouse server: two migrators at once converge, a
 * second run changes nothing, and a replica refuses a database that was never migrated.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, weftEnv } from '../../testing/serveProcess.js';
import { testBackends } from '../../testing/tempStore.js';
import { openStore } from '../openStore.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { LATEST_CLICKHOUSE_VERSION } from './migrations/index.js';

/** Runs `weft migrate` as a user would and collects what it prints. */
function weftMigrate(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'migrate'], { cwd: ROOT, env: weftEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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

      // Three `weft` processes start through tsx: slow on a busy machine, so a generous timeout.
      it('lets two replicas migrate at once, and a third run finds nothing to do', { timeout: 180_000 }, async () => {
        const [a, b] = await Promise.all([weftMigrate(env), weftMigrate(env)]);
        expect([a.code, b.code]).toEqual([0, 0]);
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
