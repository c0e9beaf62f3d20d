/**
 * The file reference index on ClickHouse: written with each payload, and rebuilt the same by
 * migration 18's backfill statements on a database that predates it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { FILE_REFS, writeFileRefPayloads } from '../conformance/fileRefsFixture.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { v18FileRefs } from './migrations/v18FileRefs.js';

const P = 'acme/files';

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse file reference index', () => {
    let store: ClickHouseStore;
    let raw: ClickHouseDatabase;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      store = await ClickHouseStore.open(db);
      raw = new ClickHouseDatabase(db);
    });
    afterAll(async () => {
      await store.close();
      await raw.close();
      await drop();
    });

    const refs = async () => {
      const calls = await raw.all<{ id: string; digest: string }>(
        'SELECT DISTINCT id, digest FROM call_file_refs WHERE project_id = {p:String}',
        { p: P },
      );
      const objects = await raw.all<{ kind: string; holder: string; digest: string }>(
        'SELECT DISTINCT kind, holder, digest FROM object_file_refs WHERE project_id = {p:String}',
        { p: P },
      );
      return [...calls.map((r) => `call ${r.id} ${r.digest}`), ...objects.map((r) => `${r.kind} ${r.holder} ${r.digest}`)].sort();
    };

    it('records the files each call, object version and table row refers to, and migration 18 backfills the same', async () => {
      await writeFileRefPayloads(store, P);
      expect(await refs()).toEqual(FILE_REFS);
      await raw.command('TRUNCATE TABLE call_file_refs');
      await raw.command('TRUNCATE TABLE object_file_refs');
      expect(await refs()).toEqual([]);
      for (const sql of v18FileRefs.statements.filter((s) => s.startsWith('INSERT'))) await raw.command(sql);
      expect(await refs()).toEqual(FILE_REFS);
    });
  });
});
