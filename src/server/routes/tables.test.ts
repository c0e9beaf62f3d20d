import { describe, expect, it } from 'vitest';
import { TableQueryRes, TableRowSchema } from '../../contract/tables.js';
import { tableDigest } from '../domain/objects/digests.js';
import { projectNames, sendAsAlice, useTestServer } from '../testing/serverSuite.js';
import type { TestServer } from '../testing/testServer.js';

const t = useTestServer();

const project = projectNames('alice-co/tables');

const send = sendAsAlice(t);
const post = (path: string, body: unknown) => send(path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });

const ROW_X1 = 'YTYlqmU0Pbsbmr5qusZ3P1yRvWDT8vX34urmnh24sic';
const ROW_X2 = 'JPVyYA4VDTIwE4OFqgAGyhuZO0a7Qn90bMaQyY2TJBM';
const TABLE_X12 = 'ed8bd1f8cb829eeb6b3fef95a7cd8401f7e5af825c4c9aa144a1ceb9f32c3654';

const makeTable = (project_id: string, rows: Record<string, unknown>[]) => t.alice.client.tableCreate({ table: { project_id, rows } });
const rowsOf = async (req: Parameters<TestServer['alice']['client']['tableQuery']>[0]) =>
  TableQueryRes.parse(await t.alice.client.tableQuery(req)).rows;

describe('POST /table/create', () => {
  it('answers the documented row and table digests', async () => {
    const res = await makeTable(project(), [{ x: 1 }, { x: 2 }]);
    expect(res).toEqual({ digest: TABLE_X12, row_digests: [ROW_X1, ROW_X2] });
  });

  it('hashes rows from the body text, so 1.0 stays a float', async () => {
    const project_id = project();
    const asInt = await makeTable(project_id, [{ x: 1 }]);
    const asFloat = await post('/table/create', `{"table": {"project_id": "${project_id}", "rows": [{"x": 1.0}]}}`);
    expect(asFloat.status).toBe(200);
    expect(asFloat.body.row_digests[0]).not.toBe(asInt.row_digests[0]);
  });

  it('answers 409 on an expected_digest mismatch, 422 for non-object rows, 403 across entities', async () => {
    const project_id = project();
    expect((await post('/table/create', { table: { project_id, rows: [{ x: 1 }, { x: 2 }], expected_digest: TABLE_X12 } })).status).toBe(
      200,
    );
    expect((await post('/table/create', { table: { project_id, rows: [{ x: 1 }], expected_digest: TABLE_X12 } })).status).toBe(409);
    expect((await post('/table/create', { table: { project_id, rows: [1, 2] } })).status).toBe(422);
    expect((await post('/table/create', { table: { project_id: 'bob-co/p', rows: [] } })).status).toBe(403);
  });
});

describe('POST /table/create_from_digests', () => {
  it('makes a table of stored rows without sending them again', async () => {
    const project_id = project();
    await makeTable(project_id, [{ x: 1 }, { x: 2 }]);
    const res = await t.alice.client.tableCreateFromDigests({ project_id, row_digests: [ROW_X2, ROW_X1, ROW_X2] });
    expect(res.digest).toBe(tableDigest([ROW_X2, ROW_X1, ROW_X2]));
    expect((await rowsOf({ project_id, digest: res.digest })).map((r) => r.val)).toEqual([{ x: 2 }, { x: 1 }, { x: 2 }]);
    expect((await post('/table/create_from_digests', { project_id })).status).toBe(422);
  });
});

describe('POST /table/update', () => {
  it('applies append, insert and pop in order', async () => {
    const project_id = project();
    const base = await makeTable(project_id, [{ x: 1 }, { x: 2 }]);
    const res = await t.alice.client.tableUpdate({
      project_id,
      base_digest: base.digest,
      updates: [{ append: { row: { x: 3 } } }, { pop: { index: 0 } }, { insert: { index: 0, row: { x: 0 } } }],
    });
    expect(res.updated_row_digests[1]).toBe(ROW_X1);
    const rows = await rowsOf({ project_id, digest: res.digest });
    expect(rows.map((r) => r.val)).toEqual([{ x: 0 }, { x: 2 }, { x: 3 }]);
    expect(res.digest).toBe(tableDigest(rows.map((r) => r.digest)));
    expect(res.updated_row_digests).toEqual([rows[2]!.digest, ROW_X1, rows[0]!.digest]);
  });

  it('answers 400 for an index out of range, 404 for an unknown base, 422 for a bad update', async () => {
    const project_id = project();
    const base = await makeTable(project_id, [{ x: 1 }]);
    expect((await post('/table/update', { project_id, base_digest: base.digest, updates: [{ pop: { index: 1 } }] })).status).toBe(400);
    expect(
      (await post('/table/update', { project_id, base_digest: base.digest, updates: [{ insert: { index: 2, row: {} } }] })).status,
    ).toBe(400);
    expect((await post('/table/update', { project_id, base_digest: 'nope', updates: [] })).status).toBe(404);
    expect((await post('/table/update', { project_id, base_digest: base.digest, updates: [{ shuffle: {} }] })).status).toBe(422);
  });
});

describe('POST /table/query', () => {
  it('returns rows in table order with positions, filtered, sorted by dotted paths and paged', async () => {
    const project_id = project();
    const rows = [
      { m: { s: 3 }, k: 'c' },
      { m: { s: 1 }, k: 'a' },
      { m: { s: 2 }, k: 'b' },
      { m: { s: 1 }, k: 'a' },
    ];
    const { digest, row_digests } = await makeTable(project_id, rows);
    expect((await rowsOf({ project_id, digest })).map((r) => r.original_index)).toEqual([0, 1, 2, 3]);
    const sorted = await rowsOf({ project_id, digest, sort_by: [{ field: 'm.s', direction: 'desc' }] });
    expect(sorted.map((r) => r.original_index)).toEqual([0, 2, 1, 3]);
    const filtered = await rowsOf({ project_id, digest, filter: { row_digests: [row_digests[1]!] } });
    expect(filtered).toEqual([
      { digest: row_digests[1], val: rows[1], original_index: 1 },
      { digest: row_digests[1], val: rows[1], original_index: 3 },
    ]);
    expect((await rowsOf({ project_id, digest, offset: 1, limit: 2 })).map((r) => r.original_index)).toEqual([1, 2]);
    expect(await rowsOf({ project_id, digest: 'unknown' })).toEqual([]);
  });

  it('answers 400 for malformed sort fields and 403 across entities', async () => {
    const project_id = project();
    const { digest } = await makeTable(project_id, [{ a: 1 }]);
    for (const field of ['.a', 'a.', 'a..b', ' ']) {
      expect((await post('/table/query', { project_id, digest, sort_by: [{ field, direction: 'asc' }] })).status).toBe(400);
    }
    expect((await post('/table/query', { project_id: 'bob-co/p', digest })).status).toBe(403);
  });
});

describe('POST /table/query_stream', () => {
  it('streams a 100,000-row table as JSON lines, the first rows arriving long before the last', async () => {
    const project_id = project();
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ i, text: `row ${i}` }));
    const { digest } = await makeTable(project_id, rows);
    const res = await t.fetch('/table/query_stream', { method: 'POST', body: JSON.stringify({ project_id, digest }) });
    expect(res.headers.get('content-type')).toBe('application/jsonl');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    let count = 0;
    let linesAtFirstChunk = -1;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      buffered += decoder.decode(r.value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const row = TableRowSchema.parse(JSON.parse(line));
        expect(row.original_index).toBe(count++);
      }
      if (linesAtFirstChunk < 0) linesAtFirstChunk = count;
    }
    expect(count).toBe(100_000);
    // The server writes rows as it reads them (in ~64 KiB pieces), not after loading the table.
    expect(linesAtFirstChunk).toBeGreaterThan(0);
    expect(linesAtFirstChunk).toBeLessThan(10_000);
  }, 60_000);

  it('answers 400 before streaming when the sort field is malformed', async () => {
    const project_id = project();
    const { digest } = await makeTable(project_id, [{ a: 1 }]);
    expect((await post('/table/query_stream', { project_id, digest, sort_by: [{ field: 'a..b', direction: 'asc' }] })).status).toBe(400);
  });
});

describe('POST /table/query_stats', () => {
  it('counts rows; an unknown table counts 0', async () => {
    const project_id = project();
    const { digest } = await makeTable(project_id, [{ a: 1 }, { a: 1 }, { a: 2 }]);
    expect(await t.alice.client.tableQueryStats({ project_id, digest })).toEqual({ count: 3 });
    expect(await t.alice.client.tableQueryStats({ project_id, digest: 'unknown' })).toEqual({ count: 0 });
    expect((await post('/table/query_stats', { project_id: 'bob-co/p', digest })).status).toBe(403);
  });
});

describe('POST /table/query_stats_batch', () => {
  it('reports known tables only, with sizes on request', async () => {
    const project_id = project();
    const a = await makeTable(project_id, [{ a: 1 }]);
    const b = await makeTable(project_id, [{ a: 1 }, { b: 2 }]);
    const res = await t.alice.client.tableQueryStatsBatch({
      project_id,
      digests: [a.digest, 'unknown', b.digest],
      include_storage_size: true,
    });
    expect(res.tables.sort((x, y) => x.count - y.count)).toEqual([
      { digest: a.digest, count: 1, storage_size_bytes: '{"a":1}'.length },
      { digest: b.digest, count: 2, storage_size_bytes: '{"a":1}'.length + '{"b":2}'.length },
    ]);
    expect((await t.alice.client.tableQueryStatsBatch({ project_id, digests: [a.digest] })).tables[0]!.storage_size_bytes).toBeNull();
    expect((await post('/table/query_stats_batch', { project_id: 'bob-co/p' })).status).toBe(403);
  });
});
