import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallSchema } from '../../contract/calls.js';
import { HttpError } from '../../client/index.js';
import { parseCsv } from '../testing/csvReader.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let project_id: string;
const TRICKY = 'Say "hi", then\nleave';

beforeAll(async () => {
  t = await startTestServer();
  project_id = `${t.alice.entity}/export`;
  const call = (id: string, op_name: string, extra: Record<string, unknown> = {}) => [
    {
      mode: 'start' as const,
      req: {
        start: {
          project_id,
          id,
          trace_id: 't1',
          op_name,
          started_at: `2024-01-01T00:00:0${id.slice(-1)}Z`,
          attributes: {},
          inputs: { q: id },
          ...extra,
        },
      },
    },
    {
      mode: 'end' as const,
      req: {
        end: {
          project_id,
          id,
          ended_at: `2024-01-01T00:00:0${id.slice(-1)}.250Z`,
          output: { a: 1 },
          summary: { usage: { 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
        },
      },
    },
  ];
  await t.alice.client.callUpsertBatch({
    batch: [...call('c1', 'agent.run', { display_name: TRICKY }), ...call('c2', 'tool.search'), ...call('c3', 'tool.search')],
  });
});
afterAll(async () => {
  await t.close();
});

describe('POST /weft/calls/export', () => {
  it('downloads JSON lines, one CallSchema per line, as an attachment', async () => {
    const res = await t.alice.client.callsExport({ project_id });
    expect(res.headers.get('content-type')).toMatch(/^application\/jsonl/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="export-calls.jsonl"');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const calls = text
      .trimEnd()
      .split('\n')
      .map((line) => CallSchema.parse(JSON.parse(line)));
    expect(calls.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(calls[0]!.display_name).toBe(TRICKY);
    expect(calls[0]!.summary?.weave).toMatchObject({ status: 'success', latency_ms: 250 });
  });

  it('downloads CSV with flattened default columns and RFC 4180 quoting', async () => {
    const res = await t.alice.client.callsExport({ project_id, format: 'csv' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="export-calls.csv"');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      'id',
      'trace_id',
      'parent_id',
      'op_name',
      'display_name',
      'started_at',
      'ended_at',
      'status',
      'latency_ms',
      'exception',
      'total_tokens',
      'inputs',
      'output',
      'attributes',
      'summary',
    ]);
    expect(rows).toHaveLength(4);
    const first = Object.fromEntries(rows[0]!.map((name, i) => [name, rows[1]![i]]));
    expect(first).toMatchObject({
      id: 'c1',
      parent_id: '',
      display_name: TRICKY,
      status: 'success',
      latency_ms: '250',
      total_tokens: '15',
      exception: '',
    });
    expect(JSON.parse(first.inputs!)).toEqual({ q: 'c1' });
    expect(JSON.parse(first.summary!).usage['gpt-4o'].total_tokens).toBe(15);
  });

  it('writes only the requested columns, dotted paths included', async () => {
    const res = await t.alice.client.callsExport({ project_id, format: 'csv', columns: ['id', 'status', 'inputs.q', 'output'] });
    expect(parseCsv(await res.text())).toEqual([
      ['id', 'status', 'inputs.q', 'output'],
      ['c1', 'success', 'c1', '{"a":1}'],
      ['c2', 'success', 'c2', '{"a":1}'],
      ['c3', 'success', 'c3', '{"a":1}'],
    ]);
  });

  it('applies the filter, query and sort of the request', async () => {
    const res = await t.alice.client.callsExport({
      project_id,
      filter: { op_names: ['tool.search'] },
      sort_by: [{ field: 'started_at', direction: 'desc' }],
    });
    const ids = (await res.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(['c3', 'c2']);
  });

  it('streams every matching call, beyond any page size', async () => {
    const big = `${t.alice.entity}/export-big`;
    const batch = Array.from({ length: 3000 }, (_, i) => ({
      mode: 'start' as const,
      req: {
        start: {
          project_id: big,
          id: `b${i}`,
          trace_id: 'tb',
          op_name: 'op',
          started_at: '2024-01-01T00:00:00Z',
          attributes: {},
          inputs: { pad: 'x'.repeat(100) },
        },
      },
    }));
    await t.alice.client.callUpsertBatch({ batch });
    const text = await (await t.alice.client.callsExport({ project_id: big, format: 'csv', columns: ['id'] })).text();
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(3001);
  });

  it("answers 403 for another entity's project", async () => {
    const err = await t.alice.client.callsExport({ project_id: `${t.bob.entity}/export` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    const res = await fetch(`${t.url}/weft/calls/export`, { method: 'POST', body: JSON.stringify({ project_id }) });
    expect(res.status).toBe(401);
  });

  it('answers an error status, not a broken download, when the query is bad', async () => {
    const query = { $expr: { $eq: [{ $getField: 'no_such_column' }, { $literal: 1 }] } };
    const res = await t.fetch('/weft/calls/export', { json: { project_id, format: 'csv', query } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-disposition')).toBeNull();
  });

  it('answers 422 for an unknown format', async () => {
    const res = await t.fetch('/weft/calls/export', { json: { project_id, format: 'xlsx' } });
    expect(res.status).toBe(422);
  });
});
