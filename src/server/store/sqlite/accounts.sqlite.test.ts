/**
 * Default entities in the SQLite accounts store: users created before the column existed get
 * the first entity they were given (migration 8), new users too, and setting one sticks.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../openStore.js';
import { migrations } from './migrations/index.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('migration 8: a default entity per user', () => {
  it("gives existing users the first entity they were given, whatever its name's order", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-accounts-'));
    dirs.push(dataDir);
    // A data directory as the previous release left it: migrations up to 7 and two users.
    const old = new Database(join(dataDir, 'weft.sqlite'));
    for (const m of migrations.filter((m) => m.version <= 7)) old.exec(m.sql);
    old.pragma('user_version = 7');
    old.prepare('INSERT INTO users (username, created_at) VALUES (?, 0), (?, 0)').run('carol', 'dave');
    const entity = old.prepare('INSERT INTO user_entities (username, entity) VALUES (?, ?)');
    entity.run('carol', 'zeta-co');
    entity.run('carol', 'alpha-co');
    old.close();

    const store = await openStore({ kind: 'sqlite', dataDir, sqliteSync: 'normal', clickhouseUrl: null });
    try {
      expect(await store.accounts.getUser('carol')).toMatchObject({ entities: ['alpha-co', 'zeta-co'], defaultEntity: 'zeta-co' });
      expect((await store.accounts.getUser('dave'))?.defaultEntity).toBeNull();

      await store.accounts.upsertUser({ username: 'dave', entities: ['mid-co', 'a-co'] });
      expect((await store.accounts.getUser('dave'))?.defaultEntity).toBe('mid-co');
      // Adding entities later leaves the default alone; setting it changes it.
      await store.accounts.upsertUser({ username: 'carol', entities: ['aaa-co'] });
      expect((await store.accounts.getUser('carol'))?.defaultEntity).toBe('zeta-co');
      expect(await store.accounts.setDefaultEntity('carol', 'alpha-co')).toBe(true);
      expect((await store.accounts.getUser('carol'))?.defaultEntity).toBe('alpha-co');
      expect(await store.accounts.setDefaultEntity('nobody', 'alpha-co')).toBe(false);
    } finally {
      await store.close();
    }
  });
});
