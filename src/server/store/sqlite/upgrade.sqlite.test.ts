/**
 * Upgrading a SQLite file from every released schema version: for each version k of the
 * migration list, a file is built by migrations 1..k, given a user, a project and a turn with a
 * child call by plain INSERTs into the tables version 1 defined (which every later version
 * keeps; the triggers of version k fire as they did then), and opened by the newest store, which
 * migrates it. The user, their role and the calls must read back. The list comes from the
 * migrations, so a new one is tested from every older version by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';
import { SqliteStore } from './SqliteStore.js';

const P = 'acme/upgrade';
const T0 = 1_700_000_000_000_000;

function buildAtVersion(file: string, k: number): void {
  const db = new Database(file);
  try {
    for (const m of migrations.filter((m) => m.version <= k)) db.exec(m.sql);
    db.pragma(`user_version = ${k}`);
    db.prepare('INSERT INTO users (username, password_hash, is_admin, created_at) VALUES (?, NULL, 0, ?)').run('ada', T0);
    db.prepare('INSERT INTO user_entities (username, entity) VALUES (?, ?)').run('ada', 'acme');
    db.prepare('INSERT INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)').run(P, 'acme', T0);
    const insert = db.prepare(`INSERT INTO calls (project_id, id, trace_id, parent_id, thread_id, turn_id, op_name, op_base_name,
        started_at, ended_at, attributes, inputs, output, summary, input_refs, output_refs)
      VALUES (@project_id, @id, 'tr-1', @parent_id, 'th-1', @turn_id, @op, @op, @started_at, @ended_at, '{}', '{"q":"lighthouse"}',
        '"harbour"', '{}', '[]', '[]')`);
    insert.run({ project_id: P, id: 'turn-1', parent_id: null, turn_id: 'turn-1', op: 'chat', started_at: T0, ended_at: T0 + 2_000_000 });
    insert.run({
      project_id: P,
      id: 'child-1',
      parent_id: 'turn-1',
      turn_id: null,
      op: 'llm',
      started_at: T0 + 1000,
      ended_at: T0 + 1_000_000,
    });
  } finally {
    db.close();
  }
}

describe('upgrading a SQLite file with data', () => {
  for (const { version: k } of migrations) {
    it(`from schema version ${k} to ${migrations.at(-1)!.version}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'weft-upgrade-'));
      try {
        const file = join(dir, 'weft.sqlite');
        buildAtVersion(file, k);
        const store = new SqliteStore(file, { progress: () => undefined });
        try {
          expect(store.db.writer.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
          expect(await store.accounts.getUser('ada')).toMatchObject({ entities: ['acme'], roles: { acme: 'member' } });
          const calls = [];
          for await (const c of store.calls.queryCalls({ projectId: P, sortBy: [{ field: 'started_at', direction: 'desc' }] }))
            calls.push(c);
          expect(calls.map((c) => c.id)).toEqual(['child-1', 'turn-1']);
          expect(calls[1]).toMatchObject({ thread_id: 'th-1', output: 'harbour', inputs: { q: 'lighthouse' } });
          const threads = [];
          for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [{ field: 'last_updated', direction: 'desc' }] }))
            threads.push(t);
          expect(threads).toMatchObject([{ threadId: 'th-1', turnCount: 1, finishedTurnCount: 1 }]);
        } finally {
          await store.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
