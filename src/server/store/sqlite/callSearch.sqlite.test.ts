/**
 * The calls search on SQLite once the background indexer has caught up: the conformance suite
 * again, with every write's documents indexed at once (the queue empty), so each search is
 * answered by the trigram index's MATCH and not by reading queued calls. And the upgrade path:
 * migration 30 queues the calls stored before, which the indexer then works through. And the
 * free pages the indexes leave, given back on a file made new.
 */
import Database from 'better-sqlite3';
import { UNDO_V35_SQL } from './migrations/v35ThreadCostsKept.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCallsSearchConformance } from '../conformance/callsSearch.conformance.js';
import { startWrite } from '../conformance/callWrites.js';
import type { OpenStore } from '../../testing/tempStore.js';
import { indexQueuedDocs, queuedDocs, reclaimFreePages } from './callSearch.js';
import { compileSelect } from './callsQuery.js';
import { SqliteStore } from './SqliteStore.js';
import { compileThreadFilter } from './threadsFilter.js';

/** A store whose call writes are indexed before they answer. */
const openIndexedStore: OpenStore = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-search-'));
  const store = new SqliteStore(join(dir, 'weft.sqlite'));
  const write = store.calls.writeCalls.bind(store.calls);
  store.calls.writeCalls = async (writes) => {
    await write(writes);
    while (indexQueuedDocs(store.db, 1000) > 0);
    expect(queuedDocs(store.db)).toBe(0);
  };
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

describe('calls search through the trigram index alone', () => describeCallsSearchConformance(openIndexedStore));

describe('search plans on SQLite', () => {
  it("reads a search's candidates by rowid, never walking the project's calls, turns or documents", async () => {
    const { store, close } = await openIndexedStore();
    try {
      const P = 'plan/p';
      const writes = [];
      for (let i = 0; i < 300; i++) {
        const text = i % 100 === 7 ? 'a rare zebraquokka' : `turn ${i} about refunds`;
        writes.push(
          startWrite(P, `c${i}`, { threadId: `th${i % 30}`, turnId: `c${i}`, startedAt: 1e15 + i, inputsJson: JSON.stringify({ text }) }),
        );
      }
      await store.calls.writeCalls(writes);
      const sqlite = (store as SqliteStore).db;
      const planOf = (sql: string, params: unknown[]) =>
        sqlite.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((r) => r.detail);
      const walks = (plan: string[]) => plan.filter((d) => /(SCAN|SEARCH) (calls|d)\b/.test(d) && !/rowid=\?|doc_id=\?/.test(d));

      const calls = {
        projectId: P,
        filter: { search: 'raquok' },
        sortBy: [{ field: 'started_at', direction: 'desc' as const }],
        limit: 50,
      };
      const select = compileSelect(calls);
      expect(planOf(select.sql, select.params)).toContain('SEARCH calls USING INTEGER PRIMARY KEY (rowid=?)');
      expect(walks(planOf(select.sql, select.params))).toEqual([]);
      const found: string[] = [];
      for await (const c of store.calls.queryCalls(calls)) found.push(c.id);
      expect(found).toEqual(['c207', 'c107', 'c7']);

      const threads = compileThreadFilter({ projectId: P, search: 'raquok', sortBy: [] }, 's');
      const plan = planOf(`SELECT s.thread_id FROM thread_stats s WHERE ${threads.sql}`, threads.params);
      expect(walks(plan)).toEqual([]);
      const picked = [];
      for await (const t of store.threads.queryThreads({ projectId: P, search: 'zebraquokka', sortBy: [] })) picked.push(t.threadId);
      expect(picked).toEqual(['th17', 'th27', 'th7']);
    } finally {
      await close();
    }
  });
});

describe('calls search after an upgrade', () => {
  it('queues the calls stored before migration 30 and finds them before and after indexing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-search-up-'));
    const file = join(dir, 'weft.sqlite');
    try {
      let store = new SqliteStore(file);
      await store.calls.writeCalls([
        startWrite('up/p', 'a', { inputsJson: JSON.stringify({ q: '東京タワーに行きました' }) }),
        startWrite('up/p', 'b', { inputsJson: JSON.stringify({ q: 'مرحبا بالعالم' }) }),
      ]);
      await store.close();
      // Back to schema 29, as a file from before this migration.
      const raw = new Database(file);
      raw.exec(UNDO_V35_SQL);
      raw.exec(
        'DROP TABLE call_search; DROP TABLE call_search_queue; DROP TABLE alert_events; DROP TABLE alert_rules; DROP TABLE history_blobs; ' +
          'ALTER TABLE calls DROP COLUMN inputs_chars; ALTER TABLE calls DROP COLUMN output_chars; PRAGMA user_version = 29',
      );
      raw.close();

      store = new SqliteStore(file);
      expect(queuedDocs(store.db)).toBe(2);
      const ids = async (search: string) => {
        const out: string[] = [];
        for await (const c of store.calls.queryCalls({ projectId: 'up/p', filter: { search } })) out.push(c.id);
        return out;
      };
      expect(await ids('タワー')).toEqual(['a']);
      while (indexQueuedDocs(store.db, 1000) > 0);
      expect(queuedDocs(store.db)).toBe(0);
      expect(await ids('タワー')).toEqual(['a']);
      expect(await ids('بالعالم')).toEqual(['b']);
      expect(await ids('nothing here')).toEqual([]);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migration 33', () => {
  it('makes the index anew without positions and queues the calls indexed before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-search-33-'));
    const file = join(dir, 'weft.sqlite');
    try {
      let store = new SqliteStore(file);
      await store.calls.writeCalls([startWrite('up/p', 'a', { inputsJson: JSON.stringify({ q: '東京タワーに行きました' }) })]);
      await store.close();
      // As migration 32 left it: the index with positions, the call indexed.
      const raw = new Database(file);
      raw.exec(UNDO_V35_SQL);
      raw.exec(
        "DROP TABLE call_search; CREATE VIRTUAL TABLE call_search USING fts5(body, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'); " +
          'DELETE FROM call_search_queue; INSERT INTO call_search (rowid, body) SELECT rowid * 2, inputs FROM calls; PRAGMA user_version = 32',
      );
      raw.close();

      store = new SqliteStore(file);
      expect(store.db.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE name = 'call_search'")?.sql).toContain('detail = none');
      expect(queuedDocs(store.db)).toBe(1);
      while (indexQueuedDocs(store.db, 1000) > 0);
      const ids: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: 'up/p', filter: { search: 'タワー' } })) ids.push(c.id);
      expect(ids).toEqual(['a']);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('free pages', () => {
  const pages = (store: SqliteStore, pragma: string) => store.db.writer.pragma(pragma, { simple: true }) as number;

  it('are given back to the file system on a file made new, and left alone on an older one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-free-pages-'));
    try {
      const store = new SqliteStore(join(dir, 'weft.sqlite'));
      // Short strings only, so the rows and the index hold the text (no history blobs).
      const inputs = (i: number) =>
        Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`k${k}`, `${i} refund policy ${k} `.repeat(12)]));
      await store.calls.writeCalls(
        Array.from({ length: 200 }, (_, i) => startWrite('free/p', `c${i}`, { inputsJson: JSON.stringify(inputs(i)) })),
      );
      while (indexQueuedDocs(store.db, 1000) > 0);
      // Rows and index documents gone: their pages are free, the file as large as before.
      store.db.run('DELETE FROM call_search');
      store.db.run("DELETE FROM calls WHERE project_id = 'free/p'");
      const before = pages(store, 'page_count');
      expect(pages(store, 'freelist_count')).toBeGreaterThan(200);
      while (reclaimFreePages(store.db, 100) > 0);
      expect(pages(store, 'freelist_count')).toBeLessThanOrEqual(64);
      expect(pages(store, 'page_count')).toBeLessThan(before - 150);
      await store.close();

      // A file made before it (auto_vacuum off: only VACUUM could change that) keeps its pages.
      const old = join(dir, 'old.sqlite');
      const raw = new Database(old);
      raw.exec(
        'CREATE TABLE made_before (x BLOB); INSERT INTO made_before SELECT randomblob(4000) FROM json_each(json_array(1,2,3,4,5,6,7,8,9,10)); DROP TABLE made_before',
      );
      raw.close();
      const older = new SqliteStore(old);
      expect(pages(older, 'auto_vacuum')).toBe(0);
      expect(reclaimFreePages(older.db, 100)).toBe(0);
      await older.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
