/**
 * A request thread forwards a write batch (Store.apply) to the writer as data, and the writer
 * applies it as one unit (one savepoint of a group commit; groupCommit.test.ts shows a refused
 * write taking its batch back). Creating a v2 dataset writes a table and an object in one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/testServer.js';

describe('write batches from request threads', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { WEFT_THREADS: '1', WEFT_READ_THREADS: '1' } });
    await t.server.threads!.whenReady();
  });
  afterAll(() => t.close());

  it('applies a dataset (table plus object) created in a thread as one unit', async () => {
    const unitsBefore = t.server.threads!.committer.counts.units;
    const created = await t.alice.client.datasetCreate({
      entity: 'alice-co',
      project: 'batch',
      name: 'quiz',
      rows: [{ q: 'a' }, { q: 'b' }],
    });
    expect(created).toMatchObject({ object_id: 'quiz', version_index: 0 });
    expect(t.server.threads!.committer.counts.units).toBe(unitsBefore + 1);
    const read = await t.alice.client.datasetRead({ entity: 'alice-co', project: 'batch', object_id: 'quiz', digest: created.digest });
    const digest = read.rows.split('/').pop()!;
    const rows = await t.alice.client.tableQuery({ project_id: 'alice-co/batch', digest });
    expect(rows.rows.map((r) => r.val)).toEqual([{ q: 'a' }, { q: 'b' }]);
  });
});
