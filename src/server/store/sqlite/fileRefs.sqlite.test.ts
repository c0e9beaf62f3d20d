/**
 * The file reference index on SQLite: written with each payload, and rebuilt the same by
 * migration 27's backfill on a database that predates it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { UNDO_V35_SQL } from './migrations/v35ThreadCostsKept.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_REFS, writeFileRefPayloads } from '../conformance/fileRefsFixture.js';
import { SqliteStore } from './SqliteStore.js';

const P = 'acme/files';

const refs = (store: SqliteStore) =>
  store.db
    .all<{ kind: string; holder: string; digest: string }>('SELECT kind, holder, digest FROM file_refs WHERE project_id = ?', [P])
    .map((r) => `${r.kind} ${r.holder} ${r.digest}`)
    .sort();

describe('SQLite file reference index', () => {
  it('records the files each call, object version and table row refers to, and migration 27 backfills the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-file-refs-'));
    try {
      const file = join(dir, 'weft.sqlite');
      const before = new SqliteStore(file);
      await writeFileRefPayloads(before, P);
      expect(refs(before)).toEqual(FILE_REFS);
      // As a version-26 database left it: no index, nor the tables of later migrations.
      for (const table of ['file_refs', 'call_search', 'call_search_queue', 'alert_events', 'alert_rules', 'history_blobs'])
        before.db.run(`DROP TABLE ${table}`);
      for (const column of ['inputs_chars', 'output_chars']) before.db.run(`ALTER TABLE calls DROP COLUMN ${column}`);
      before.db.writer.exec(UNDO_V35_SQL);
      before.db.writer.pragma('user_version = 26');
      await before.close();
      const after = new SqliteStore(file);
      expect(refs(after)).toEqual(FILE_REFS);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
