/**
 * `weft audit verify` as an operator runs it (`node bin/weft.js audit verify`) on a real SQLite
 * file: OK with the row count on an intact log; exit status 1 naming the row after an edit made
 * directly in the file or a row deleted from the middle; after a retention sweep, OK from the
 * oldest row kept. `weft user add` and `weft key create` write their rows via 'cli'.
 * docs/security/audit.md.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openStore } from '../store/openStore.js';
import { BIN, ROOT, weftEnv } from '../testing/serveProcess.js';
import type { AuditEntry } from './auditTrail.js';
import { AuditSweeper } from './auditSweeper.js';

const DAY = 86_400 * 1e6;
const T0 = Date.UTC(2024, 0, 1) * 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const entry = (target: string): AuditEntry => ({
  actor: { username: 'alice', keyId: null, via: 'session' },
  address: '127.0.0.1',
  action: 'calls.deleted',
  target,
  entity: 'acme',
  projectId: 'acme/p',
  outcome: 'success',
  details: { deleted: 2 },
});

/** A data directory whose audit log has five rows, one a day from T0. */
async function logOfFive(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-audit-'));
  dirs.push(dataDir);
  const store = await openStore({ kind: 'sqlite', dataDir });
  for (let i = 1; i <= 5; i++) await store.audit.append(entry(`t${i}`), T0 + i * DAY);
  await store.close();
  return dataDir;
}

async function verify(dataDir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return weft(dataDir, ['audit', 'verify'], env);
}

async function weft(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: weftEnv({ WEFT_DATA_DIR: dataDir, ...env }),
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

function editFile(dataDir: string, sql: string): void {
  const db = new Database(join(dataDir, 'weft.sqlite'));
  db.exec(sql);
  db.close();
}

describe('weft audit verify', () => {
  it('prints OK with the row count for an intact log', async () => {
    const dir = await logOfFive();
    const { code, out } = await verify(dir);
    expect(out).toContain('Audit log OK: 5 row(s) in 1 chain(s).');
    expect(code).toBe(0);
  });

  it('names the edited row, with its time, and exits 1', async () => {
    const dir = await logOfFive();
    editFile(dir, "UPDATE audit_log SET target = 'someone-else' WHERE seq = 3");
    const { code, out } = await verify(dir);
    expect(code).toBe(1);
    expect(out).toContain('at row sqlite:3 (2024-01-04T00:00:00');
    expect(out).toContain('the row was changed');
  });

  it('names the row after one deleted from the middle', async () => {
    const dir = await logOfFive();
    editFile(dir, 'DELETE FROM audit_log WHERE seq = 3');
    const { code, out } = await verify(dir);
    expect(code).toBe(1);
    expect(out).toContain('at row sqlite:4');
    expect(out).toContain('row(s) 3-3 before it are missing');
  });

  it('after a retention sweep, verifies from the oldest row kept; without retention that gap is a break', async () => {
    const dir = await logOfFive();
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    const sweeper = new AuditSweeper({ store, clock: { nowMicros: () => T0 + 5 * DAY }, log: createLogger('silent'), retentionDays: 2 });
    expect(await sweeper.sweepOnce()).toBe(2);
    await store.close();
    const kept = await verify(dir, { WEFT_AUDIT_RETENTION_DAYS: '2' });
    expect(kept.code).toBe(0);
    expect(kept.out).toContain('Audit log OK: 3 row(s)');
    expect(kept.out).toContain('verified from row 3 (2024-01-04T00:00:00');
    expect((await verify(dir)).code).toBe(1);
  });
});

describe('weft commands on the server', () => {
  it('user add and key create write rows via cli, which verify', async () => {
    const dir = await logOfFive();
    expect((await weft(dir, ['user', 'add', 'zed', '--entity', 'acme'])).code).toBe(0);
    expect((await weft(dir, ['key', 'create', '--user', 'zed'])).code).toBe(0);
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    try {
      const [key, user] = await store.audit.query({ entities: 'all' }, 2);
      expect(user).toMatchObject({ action: 'user.created', target: 'zed', actorVia: 'cli', address: '', details: { entities: 'acme' } });
      expect(key).toMatchObject({ action: 'key.created', actorVia: 'cli', details: { owner: 'zed' } });
    } finally {
      await store.close();
    }
    expect((await verify(dir)).out).toContain('Audit log OK: 7 row(s)');
  });

  it('user role, retention set and redaction add write their rows via cli', async () => {
    const dir = await logOfFive();
    expect((await weft(dir, ['user', 'add', 'zoe', '--entity', 'acme'])).code).toBe(0);
    expect((await weft(dir, ['user', 'role', 'zoe', 'acme/support', 'viewer'])).code).toBe(0);
    expect((await weft(dir, ['retention', 'set', 'acme/support', '30'])).code).toBe(0);
    expect((await weft(dir, ['redaction', 'add', 'acme', '--key', 'api_key'])).code).toBe(0);
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    try {
      const [redaction, retention, role] = await store.audit.query({ entities: 'all' }, 3);
      expect(role).toMatchObject({
        action: 'role.changed',
        target: 'zoe',
        projectId: 'acme/support',
        actorVia: 'cli',
        details: { role: 'viewer' },
      });
      expect(retention).toMatchObject({ action: 'retention.changed', projectId: 'acme/support', details: { days_after: 30 } });
      expect(redaction).toMatchObject({
        action: 'redaction.changed',
        entity: 'acme',
        projectId: null,
        details: { change: 'added', kind: 'key' },
      });
    } finally {
      await store.close();
    }
  });
});
