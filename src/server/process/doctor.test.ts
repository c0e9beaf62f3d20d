/**
 * `weft doctor`: what it prints of a deployment and each check's warning, on real data
 * directories (the free disk and the Node version are given, the machine's cannot be chosen),
 * and once as a user runs it: warnings make the exit status 1.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { changedSettings, runDoctor, type DiskStats, type DoctorOptions } from './doctor.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { migrations } from '../store/sqlite/migrations/index.js';
import { WEFT_VERSION } from '../version.js';
import { BIN } from '../testing/serveProcess.js';

const LATEST = migrations.at(-1)!.version;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-doctor-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A 100 GB disk with `free` bytes available. */
const disk =
  (free: number, size = 100e9) =>
  (): DiskStats => ({ bsize: 4096, blocks: Math.round(size / 4096), bavail: Math.round(free / 4096) });
const healthy: DoctorOptions = { nodeVersion: '22.12.0', statfs: disk(50e9) };

async function doctorOn(dataDir: string, env: Record<string, string> = {}, options: DoctorOptions = {}) {
  const report = await runDoctor(loadConfig({ WEFT_DATA_DIR: dataDir, ...env }), { ...healthy, ...options });
  const finding = (check: string) => report.findings.find((f) => f.check === check)!;
  const fact = (label: string) => report.facts.find(([k]) => k === label)?.[1];
  return { report, finding, fact };
}

async function newDatabase(): Promise<string> {
  const dir = tempDir();
  await new SqliteStore(join(dir, 'weft.sqlite')).close();
  return dir;
}

describe('weft doctor', () => {
  it('prints version, Node, store, schema, sizes, free disk and the changed settings, secrets hidden', async () => {
    const dir = await newDatabase();
    const { report, fact } = await doctorOn(dir, {
      WEFT_ADMIN_PASSWORD: 'hunter2',
      WEFT_READ_THREADS: '3',
      PORT: '8420',
      OPENAI_BASE_URL: 'https://user:token@llm.example.com/v1',
    });
    expect(fact('version')).toBe(`Weft ${WEFT_VERSION}`);
    expect(fact('node')).toBe('22.12.0');
    expect(fact('store')).toBe(`sqlite at ${join(dir, 'weft.sqlite')}`);
    expect(fact('schema')).toBe(`${LATEST} (this Weft: ${LATEST})`);
    expect(fact('database')).toMatch(/^\d+\.\d MB$/);
    expect(fact('wal')).toBe('0.0 MB');
    expect(fact('data dir')).toBe(`${dir}, 50.0 GB free of 100.0 GB`);
    // PORT is at its default; the password is set but never printed.
    expect(fact('settings')).toBe(
      `WEFT_DATA_DIR=${dir} WEFT_ADMIN_PASSWORD=(set, hidden) WEFT_READ_THREADS=3 OPENAI_BASE_URL=https://***@llm.example.com/v1`,
    );
    expect(JSON.stringify(report)).not.toContain('hunter2');
    expect(report.findings.filter((f) => f.level === 'warn')).toEqual([]);
  });

  it('lists no settings when all are defaults, and takes flags as well as variables', () => {
    expect(changedSettings({})).toEqual([]);
    expect(changedSettings({ WEFT_THREADS: '1' }, { port: '9000' })).toEqual([['PORT', '9000']]);
  });

  it('warns when Node is older than the supported line', async () => {
    const { finding } = await doctorOn(await newDatabase(), {}, { nodeVersion: '20.19.1' });
    expect(finding('node-version')).toMatchObject({ level: 'warn', message: expect.stringMatching(/Node 20\.19\.1 is older than .* 22/) });
  });

  it('warns when the disk is nearly full: below 10 % or below 1 GiB', async () => {
    const dir = await newDatabase();
    expect((await doctorOn(dir, {}, { statfs: disk(5e9) })).finding('disk-space')).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/only 5\.0 GB free \(5 %\) .* nearly full/),
    });
    expect((await doctorOn(dir, {}, { statfs: disk(0.5e9, 2e9) })).finding('disk-space').level).toBe('warn');
    expect((await doctorOn(dir, {}, { statfs: disk(20e9) })).finding('disk-space').level).toBe('ok');
    // A data directory not made yet is measured where it will be.
    const { finding } = await doctorOn(join(dir, 'not', 'yet'), {}, { statfs: (path) => (path === dir ? disk(20e9)() : disk(0)()) });
    expect(finding('disk-space')).toMatchObject({ level: 'ok', message: expect.stringContaining(`filesystem of ${dir}`) });
  });

  it('warns when the WAL is far larger than the database (a connection that never checkpoints)', async () => {
    const dir = await newDatabase();
    const stuck = new Database(join(dir, 'weft.sqlite'));
    try {
      stuck.pragma('wal_autocheckpoint = 0');
      stuck.exec('CREATE TABLE pad (b BLOB)');
      const insert = stuck.prepare('INSERT INTO pad VALUES (randomblob(1000000))');
      for (let i = 0; i < 20; i++) insert.run();
      const { finding, fact } = await doctorOn(dir);
      expect(fact('wal')).toMatch(/^2\d\.\d MB$/);
      expect(finding('wal-size')).toMatchObject({
        level: 'warn',
        message: expect.stringMatching(/the WAL \(2\d\.\d MB\) is larger than the database/),
      });
    } finally {
      stuck.close();
    }
    expect((await doctorOn(dir)).finding('wal-size').level).toBe('ok');
  });

  it('says a new directory has no database yet, and warns about a database from a newer Weft', async () => {
    const fresh = await doctorOn(tempDir());
    expect(fresh.finding('schema')).toMatchObject({ level: 'ok', message: 'no database yet: the first start creates it' });
    const dir = await newDatabase();
    const db = new Database(join(dir, 'weft.sqlite'));
    db.pragma('user_version = 9999');
    db.close();
    expect((await doctorOn(dir)).finding('schema')).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/schema version 9999, made by a newer Weft/),
    });
  });

  it('runs as a user runs it: exit status 1 on any warning, with what to do', () => {
    const run = (env: Record<string, string>) => {
      const res = spawnSync(process.execPath, [BIN, 'doctor'], {
        env: { PATH: process.env.PATH ?? '', WEFT_DATA_DIR: tempDir(), ...env },
        encoding: 'utf8',
      });
      return { status: res.status, out: res.stdout + res.stderr };
    };
    // Nothing listens on this port: the password check still speaks, and the store is unreachable.
    const clickhouse = { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: 'http://127.0.0.1:9' };
    const bare = run(clickhouse);
    expect(bare.status).toBe(1);
    expect(bare.out).toMatch(/WARN clickhouse-password: the ClickHouse user "default" has no password .* WEFT_CLICKHOUSE_PASSWORD/);
    expect(bare.out).toMatch(/WARN schema: cannot reach ClickHouse/);
    const withPassword = run({ ...clickhouse, WEFT_CLICKHOUSE_USER: 'weft', WEFT_CLICKHOUSE_PASSWORD: 's3cret' });
    expect(withPassword.out).toMatch(/ok {3}clickhouse-password: the ClickHouse user "weft" is given a password/);
    expect(withPassword.out).not.toContain('s3cret');
    // On SQLite only the machine's own state can warn: its Node version, its disk.
    const sqlite = run({});
    expect(sqlite.out).toMatch(/^version: +Weft /m);
    expect(sqlite.out).toMatch(/^ok {3}schema: no database yet/m);
    expect(sqlite.status).toBe(/^WARN /m.test(sqlite.out) ? 1 : 0);
    expect(sqlite.out.includes('WARN node-version')).toBe(Number(process.versions.node.split('.')[0]) < 22);
  });
});
