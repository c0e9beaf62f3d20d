/**
 * The data directory is created 0700 and the database files (with -wal and -shm) are 0600:
 * they hold every tenant's traces and the password and key hashes (before: 0755 and 0644).
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../testing/testServer.js';

const parent = mkdtempSync(join(tmpdir(), 'weft-perms-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('data directory and database file permissions', () => {
  it('creates the data dir 0700 and the database, -wal and -shm 0600', async () => {
    const dataDir = join(parent, 'fresh', 'data');
    const t = await startTestServer({ env: { WEFT_DATA_DIR: dataDir } });
    try {
      await t.alice.client.callStart({
        start: { project_id: `${t.alice.entity}/p`, op_name: 'x', started_at: '2024-01-01T00:00:00Z', inputs: {} },
      });
      expect(mode(dataDir)).toBe(0o700);
      for (const file of ['weft.sqlite', 'weft.sqlite-wal', 'weft.sqlite-shm']) expect(mode(join(dataDir, file))).toBe(0o600);
    } finally {
      await t.close();
    }
  });

  it('tightens database files left readable by an older version', async () => {
    const dataDir = join(parent, 'old');
    const t0 = await startTestServer({ env: { WEFT_DATA_DIR: dataDir } });
    await t0.server.close();
    chmodSync(join(dataDir, 'weft.sqlite'), 0o644);
    const t = await startTestServer({ env: { WEFT_DATA_DIR: dataDir } });
    try {
      expect(mode(join(dataDir, 'weft.sqlite'))).toBe(0o600);
    } finally {
      await t.close();
    }
  });
});
