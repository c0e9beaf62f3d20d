/**
 * `weft backup` and `weft restore` on SQLite, against a real `weft serve` process: a backup
 * taken while clients keep writing holds every call acknowledged before it began, and restores
 * into a server that serves them; restore refuses a live data directory and files that are not
 * sound Weft databases.
 */
import Database from 'better-sqlite3';
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { createApiKey } from '../auth/apiKeys.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { BIN, ROOT, spawnWeftServe, weftEnv } from '../testing/serveProcess.js';
import { liveServers } from './dataDirLock.js';
import { backupSqlite } from './sqliteBackup.js';

const PROJECT = 'backup-co/agents';
let root: string;
let liveDir: string;
let apiKey: string;
const running = new Set<ChildProcess>();

const env = (dataDir: string) => weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'backup-admin' });

async function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const server = await spawnWeftServe(env(dataDir));
  running.add(server.child);
  server.child.once('exit', () => running.delete(server.child));
  return server;
}

/** Stops a server the way an operator does (SIGINT: it closes the store and removes its record). */
async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  await exited;
}

/** Runs the real `weft` binary; resolves with its exit code and output, never rejects. */
async function weft(dataDir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args, '--data-dir', dataDir], {
      cwd: ROOT,
      env: env(dataDir),
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-backup-'));
  liveDir = join(root, 'live');
  const store = new SqliteStore(join(liveDir, 'weft.sqlite'));
  await store.accounts.upsertUser({ username: 'bob', entities: ['backup-co'] });
  apiKey = (await createApiKey(store, 'bob')).key;
  await store.close();
});

afterEach(async () => {
  for (const child of running) await stop(child);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('weft backup and weft restore (SQLite)', () => {
  it('backs up under concurrent writes and restores every call acknowledged before the backup began', async () => {
    const server = await serve(liveDir);
    const authorization = `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`;
    const acked: string[] = [];
    let writing = true;
    let n = 0;
    // Four clients, each sending batches of 20 calls (start and end) until told to stop.
    const clients = Array.from({ length: 4 }, async (_, c) => {
      while (writing) {
        const batch = [];
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          const id = `c${c}-${n++}`;
          ids.push(id);
          const started_at = new Date(Date.UTC(2026, 0, 1) + n).toISOString();
          batch.push({
            mode: 'start',
            req: {
              start: {
                project_id: PROJECT,
                id,
                trace_id: id,
                op_name: 'step',
                started_at,
                attributes: {},
                inputs: { pad: 'x'.repeat(2000) },
              },
            },
          });
          batch.push({ mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: started_at, summary: {}, output: id } } });
        }
        const res = await fetch(`${server.url}/call/upsert_batch`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ batch }),
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        acked.push(...ids);
      }
    });
    while (acked.length < 1000) await new Promise((r) => setTimeout(r, 20));
    // Every call acknowledged by now must be in the copy.
    const before = [...acked];
    const file = join(root, 'under-load.sqlite');
    const steps: number[] = [];
    // Small steps, so the copy spans many of the server's commits (the CLI's are 16 MiB); held
    // after its first step until a write lands, which a quiet machine may otherwise not see.
    const result = await backupSqlite(liveDir, file, {
      pagesPerStep: 16,
      progress: (copied) => {
        steps.push(copied);
        return acked.length === before.length ? 0 : undefined;
      },
    });
    const duringBackup = acked.length - before.length;
    writing = false;
    await Promise.all(clients);
    expect(new Set(steps).size).toBeGreaterThan(10);
    expect(duringBackup).toBeGreaterThan(0);
    expect(result.bytes).toBe(statSync(file).size);
    expect(readdirSync(root).filter((f) => f.includes('.partial-'))).toEqual([]);

    // Restore refuses while the server runs, and leaves the database alone.
    const refused = await weft(liveDir, 'restore', file);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(`a server is using .*pid ${server.child.pid}.*stop it first`));
    await stop(server.child);
    expect(liveServers(liveDir)).toEqual([]);

    // Into a fresh data directory with the real binary, then served.
    const freshDir = join(root, 'fresh');
    const restored = await weft(freshDir, 'restore', file);
    expect(restored.out).toMatch(/Restored .* schema version \d+/);
    expect(restored.code).toBe(0);
    const again = await serve(freshDir);
    const client = createClient({ baseUrl: again.url, auth: { username: 'api', password: apiKey } });
    const found = new Set<string>();
    for await (const c of client.callsStreamQuery({ project_id: PROJECT, columns: ['id'] })) found.add(c.id);
    expect(before.filter((id) => !found.has(id))).toEqual([]);
    await stop(again.child);
  }, 120_000);

  it('restores over an existing database, keeping it aside, and refuses files that are not sound Weft databases', async () => {
    const dir = join(root, 'swap');
    const good = join(root, 'good.sqlite');
    const backup = await weft(liveDir, 'backup', good);
    expect(backup.out).toMatch(/Backed up .* to .*good\.sqlite: [\d.]+ MB in [\d.]+ s/);
    expect(backup.code).toBe(0);
    // A second backup to the same name needs --force.
    const again = await weft(liveDir, 'backup', good);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/good\.sqlite exists; choose another name, or --force/);
    expect((await weft(liveDir, 'backup', good, '--force')).code).toBe(0);

    // An old database with its WAL: both are moved aside, under names SQLite pairs.
    const old = new SqliteStore(join(dir, 'weft.sqlite'));
    await old.close();
    writeFileSync(join(dir, 'weft.sqlite-wal'), '');
    const swapped = await weft(dir, 'restore', good);
    expect(swapped.code).toBe(0);
    const aside = /kept as (\S+)\./.exec(swapped.out)![1]!;
    expect(existsSync(aside)).toBe(true);
    expect(existsSync(`${aside}-wal`)).toBe(true);
    expect(existsSync(join(dir, 'weft.sqlite-wal'))).toBe(false);

    const garbage = join(root, 'garbage.sqlite');
    writeFileSync(garbage, 'this is not a database, just some text long enough to fill a header '.repeat(20));
    const notSqlite = await weft(dir, 'restore', garbage);
    expect(notSqlite.code).toBe(1);
    expect(notSqlite.out).toMatch(/garbage\.sqlite is not a SQLite database/);

    const other = join(root, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    const notWeft = await weft(dir, 'restore', other);
    expect(notWeft.code).toBe(1);
    expect(notWeft.out).toMatch(/other\.sqlite is a SQLite database but not a Weft one/);

    const newer = join(root, 'newer.sqlite');
    copyFileSync(good, newer);
    const future = new Database(newer);
    future.pragma('user_version = 9999');
    future.close();
    const tooNew = await weft(dir, 'restore', newer);
    expect(tooNew.code).toBe(1);
    expect(tooNew.out).toMatch(/schema version 9999, made by a newer Weft; this one knows versions up to \d+/);
    // Nothing refused replaced the restored database.
    expect(statSync(join(dir, 'weft.sqlite')).size).toBe(statSync(good).size);
  }, 120_000);
});
