/** The WAL is checkpointed by its own thread, and the writer's checkpoint stays as the backstop. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from './SqliteStore.js';
import { BACKSTOP_PAGES, WAL_SIZE_LIMIT_BYTES } from './walCheckpointer.js';

describe('WAL checkpoints on their own thread', () => {
  it('copies committed pages back without the writer, and leaves the writer a backstop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-checkpoint-'));
    const file = join(dir, 'weft.sqlite');
    try {
      const store = new SqliteStore(file, { checkpointThread: true });
      const checkpointer = store.db.checkpointer!;
      expect(store.db.writer.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
      // Enough pages that the writer's own default (1,000) would have checkpointed, under the backstop.
      for (let i = 0; i < 40; i++) store.db.run('INSERT INTO login_failures (key, at) VALUES (?, ?)', ['k'.repeat(3000) + i, i]);
      const deadline = Date.now() + 10_000;
      while (!(checkpointer.last && checkpointer.last.copied > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(checkpointer.last!.copied).toBeGreaterThan(0);
      expect(checkpointer.failures).toBe(0);
      await store.close();
      const again = new SqliteStore(file);
      expect(again.db.get<{ n: number }>('SELECT count(*) AS n FROM login_failures')!.n).toBe(40);
      // Without the option, SQLite's own default stays.
      expect(again.db.writer.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      expect(again.db.checkpointer).toBeNull();
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cuts the WAL file to zero bytes once the writes pause, and the writer trims it on restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-checkpoint-'));
    const file = join(dir, 'weft.sqlite');
    try {
      const store = new SqliteStore(file, { checkpointThread: true });
      expect(store.db.writer.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
      for (let i = 0; i < 200; i++) store.db.run('INSERT INTO login_failures (key, at) VALUES (?, ?)', ['k'.repeat(3000) + i, i]);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(500_000);
      const checkpointer = store.db.checkpointer!;
      const deadline = Date.now() + 10_000;
      while (checkpointer.truncations === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(`${file}-wal`).size).toBe(0);
      // Writes after the cut start a new WAL, and every row is still there.
      store.db.run('INSERT INTO login_failures (key, at) VALUES (?, ?)', ['after', 1]);
      expect(store.db.get<{ n: number }>('SELECT count(*) AS n FROM login_failures')!.n).toBe(201);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
