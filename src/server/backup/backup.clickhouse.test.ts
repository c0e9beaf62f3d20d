/**
 * `weft backup` on ClickHouse and `weft doctor`'s ClickHouse checks, on an engine of their own:
 * it needs a backup disk and a cluster in its configuration, which the shared test engine has
 * not. The cluster is this one node (`clusterAllReplicas` then asks itself): clocks truly apart
 * cannot be made on one machine, so that case gives doctor the readings.
 *
 * Not covered: a backup to S3, a zip archive (this engine is built without minizip), a real
 * multi-replica cluster.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findLibChdb, freePort, startClickHouseEngine, type ClickHouseEngine } from '../../../scripts/clickhouseEngine.js';
import { loadConfig } from '../config.js';
import { runDoctor } from '../process/doctor.js';
import { ClickHouseDatabase } from '../store/clickhouse/ClickHouseDatabase.js';
import { ClickHouseStore } from '../store/clickhouse/ClickHouseStore.js';
import { migrateClickHouse } from '../store/clickhouse/migrate.js';
import { testBackends } from '../testing/tempStore.js';
import { backupCommand, restoreCommand } from './backupCommands.js';

const canRun = testBackends().some((b) => b.name === 'clickhouse') && findLibChdb() !== null;
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

describe.runIf(canRun)('ClickHouse backup and doctor', () => {
  let engine: ClickHouseEngine;
  let dir: string;
  let url: string;
  const database = `weft_b_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-ch-backup-'));
    const tcpPort = await freePort();
    engine = await startClickHouseEngine({
      dataDir: join(dir, 'data'),
      tcpPort,
      config: `<clickhouse>
  <storage_configuration><disks><backups><type>local</type><path>${dir}/backups/</path></backups></disks></storage_configuration>
  <backups><allowed_disk>backups</allowed_disk><allowed_path>${dir}/backups/</allowed_path></backups>
  <remote_servers><solo><shard><replica><host>127.0.0.1</host><port>${tcpPort}</port></replica></shard></solo></remote_servers>
</clickhouse>`,
    });
    url = engine.url;
    await migrateClickHouse({ url, database });
  });

  afterAll(async () => {
    await engine?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up to a disk, and the RESTORE it prints brings the data back', async () => {
    const store = await ClickHouseStore.open({ url, database });
    await store.accounts.upsertUser({ username: 'dana', entities: ['dana-co'] });
    await store.close();
    const lines: string[] = [];
    const flags = ['--store', 'clickhouse', '--clickhouse-url', url, '--clickhouse-database', database];
    await backupCommand(['nightly-1', ...flags, '--clickhouse-backup-disk', 'backups'], (l) => lines.push(l));
    const out = lines.join('\n');
    expect(out).toMatch(new RegExp(`Backed up "${database}": \\d+ files, [\\d.]+ MB in [\\d.]+ s \\(backup id [0-9a-f-]+\\)`));
    const restore = /^ {2}(RESTORE DATABASE .*);$/m.exec(out)![1]!;
    expect(restore).toBe(`RESTORE DATABASE \`${database}\` AS \`${database}_restored\` FROM Disk('backups', 'nightly-1')`);

    // weft restore prints the same statement rather than running it.
    const printed: string[] = [];
    await restoreCommand(['nightly-1', ...flags, '--clickhouse-backup-disk', 'backups'], (l) => printed.push(l));
    expect(printed.join('\n')).toContain(restore);

    const admin = new ClickHouseDatabase({ url, database: 'default' });
    try {
      await admin.command(restore);
    } finally {
      await admin.close();
    }
    const restored = await ClickHouseStore.open({ url, database: `${database}_restored` });
    expect((await restored.accounts.getUser('dana'))?.entities).toEqual(['dana-co']);
    await restored.close();

    // A disk the server does not allow is ClickHouse's refusal, passed on.
    await expect(backupCommand(['x', ...flags, '--clickhouse-backup-disk', 'nope'], () => {})).rejects.toThrow(/nope/);
    // Neither a disk nor an S3 URL: say what to give.
    await expect(backupCommand(['x', ...flags], () => {})).rejects.toThrow(/--clickhouse-backup-disk <disk>.*or an S3 URL/);
  });

  it("doctor: the schema against this Weft's, and the replicas' clocks through the cluster", async () => {
    const env = { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: url, WEFT_CLICKHOUSE_DATABASE: database };
    const finding = async (e: Record<string, string>, options = {}) => {
      const report = await runDoctor(loadConfig({ WEFT_DATA_DIR: dir, ...e }), { nodeVersion: '22.12.0', ...options });
      return (check: string) => report.findings.find((f) => f.check === check)!;
    };
    const current = await finding(env);
    expect(current('schema')).toMatchObject({ level: 'ok', message: expect.stringMatching(/is current/) });
    expect(current('clickhouse-clocks')).toMatchObject({ level: 'ok', message: expect.stringMatching(/not clustered/) });

    const behind = await finding({ ...env, WEFT_CLICKHOUSE_DATABASE: 'default' });
    expect(behind('schema')).toMatchObject({ level: 'warn', message: expect.stringMatching(/version 0, behind .* run weft migrate/) });

    // The real query, on a cluster of this one node.
    const clustered = { ...env, WEFT_CLICKHOUSE_LAYOUT: 'sharded', WEFT_CLICKHOUSE_CLUSTER: 'solo' };
    expect((await finding(clustered))('clickhouse-clocks')).toMatchObject({
      level: 'ok',
      message: expect.stringMatching(/^1 replicas within \d+ ms/),
    });
    const missing = await finding({ ...clustered, WEFT_CLICKHOUSE_CLUSTER: 'absent' });
    expect(missing('clickhouse-clocks')).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/could not read the clocks of cluster "absent"/),
    });
    const apart = await finding(clustered, {
      replicaClocks: async () => [
        { host: 'ch-1', ms: Date.UTC(2026, 0, 1) },
        { host: 'ch-2', ms: Date.UTC(2026, 0, 1) + 4200 },
      ],
    });
    expect(apart('clickhouse-clocks')).toMatchObject({ level: 'warn', message: expect.stringMatching(/are 4200 ms apart .* NTP/) });
  });
});
