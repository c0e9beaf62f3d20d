/**
 * One test per hostile-input finding: each answered 5xx (or stalled the server) before the
 * limits in limits.ts. Every answer must be a 4xx JSON error naming the problem and the limit,
 * and nothing accepted may later break a query.
 */
import { describe, expect, it } from 'vitest';
import { projectNames, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();
const send = sendAsAlice(t);
const project = projectNames('hostile');

/** `{"a": {"a": ... leaf}}` nested `depth` objects deep, built as text (JSON.stringify would overflow). */
const nestedText = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

const startBody = (project_id: string, inputs: string) =>
  `{"start":{"project_id":"${project_id}","op_name":"deep","started_at":"2024-01-01T00:00:00Z","inputs":${inputs}}}`;

const streamQuery = async (body: unknown) => {
  const res = await t.fetch('/calls/stream_query', { json: body });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
};

describe('deep JSON', () => {
  it('answers 422 with a loc for a body nested 5,000 deep (was a stack overflow, 500)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const res = await send('/call/start', { body: startBody(P, nestedText(5000)) });
    expect(res.status).toBe(422);
    const [issue] = res.body.detail;
    expect(issue.type).toBe('json_too_deep');
    expect(issue.loc.slice(0, 4)).toEqual(['body', 'start', 'inputs', 'a']);
    expect(issue.msg).toMatch(/the limit is 256 \(WEFT_MAX_JSON_DEPTH\)/);
  });

  it('refuses inputs deeper than the limit, so filters on inputs keep working (1,001 deep used to break every inputs.* filter)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    expect((await send('/call/start', { body: startBody(P, nestedText(1001)) })).status).toBe(422);
    // Right at the limit is accepted (the body and `start` are two of the 256 levels) ...
    const ok = await send('/call/start', { body: startBody(P, nestedText(254)) });
    expect(ok.status).toBe(200);
    // ... and a filter and a sort on inputs still answer.
    const q = await streamQuery({
      project_id: P,
      query: { $expr: { $eq: [{ $getField: 'inputs.a.a' }, { $literal: 'x' }] } },
      sort_by: [{ field: 'inputs.a', direction: 'asc' }],
    });
    expect(q.status).toBe(200);
  });

  it('answers 422 for feedback payloads deeper than the limit', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const res = await send('/feedback/create', {
      body: `{"project_id":"${P}","weave_ref":"weave:///${P}/call/x","feedback_type":"deep","payload":${nestedText(1001)}}`,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'payload']);
  });

  it('answers 422 on the lossless-JSON endpoints for values nested past 512 (objects, tables, v2)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const obj = await send('/obj/create', { body: `{"obj":{"project_id":"${P}","object_id":"deep","val":${nestedText(600)}}}` });
    expect(obj.status).toBe(422);
    const table = await send('/table/create', { body: `{"table":{"project_id":"${P}","rows":[${nestedText(600)}]}}` });
    expect(table.status).toBe(422);
    const [entity, name] = P.split('/');
    const dataset = await send(`/v2/${entity}/${name}/datasets`, { body: `{"name":"d","rows":[${nestedText(600)}]}` });
    expect(dataset.status).toBe(422);
    expect(dataset.body.detail[0].type).toBe('json_too_deep');
  });
});

describe('query size', () => {
  const inQuery = (P: string, n: number, extra: string[] = []) => ({
    project_id: P,
    query: {
      $expr: {
        $in: [
          { $getField: 'id' },
          [...extra, ...Array.from({ length: n }, (_, i) => ({ $literal: `id-${i}` }))].map((v) =>
            typeof v === 'string' ? { $literal: v } : v,
          ),
        ],
      },
    },
  });

  it('answers 422 naming the limit for a $in of 100,000 literals (was 91 s, then 500)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const started = Date.now();
    const res = await send('/calls/stream_query', { json: inQuery(P, 100_000) });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].msg).toBe('$in has 100000 operands; the limit is 10000 (WEFT_MAX_QUERY_OPERANDS)');
    expect(res.body.detail[0].loc).toEqual(['body', 'query', '$expr', '$in', 1]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers a $in of 10,000 literals and finds the listed call', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const { id } = await t.alice.client.callStart({
      start: { project_id: P, op_name: 'x', started_at: '2024-01-01T00:00:00Z', inputs: {} },
    });
    const q = await streamQuery(inQuery(P, 9_999, [id]));
    expect(q.status).toBe(200);
    expect(
      q.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([id]);
  });

  it('answers 422 for a $and of 100,000 children and 200 for one of 1,500 (was 57 s and 1.2 GB, then 500)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const and = (n: number) => ({
      project_id: P,
      query: { $expr: { $and: Array.from({ length: n }, (_, i) => ({ $eq: [{ $getField: 'op_name' }, { $literal: `op-${i % 3}` }] })) } },
    });
    const big = await send('/calls/stream_query', { json: and(100_000) });
    expect(big.status).toBe(422);
    expect(big.body.detail[0].msg).toBe('$and has 100000 operands; the limit is 10000 (WEFT_MAX_QUERY_OPERANDS)');
    // 1,500 is within the limits, but a flat AND chain that long passes SQLite's expression depth of 1,000.
    const fine = await streamQuery(and(1_500));
    expect(fine.status).toBe(200);
    const or = await streamQuery({ project_id: P, query: { $expr: { $or: and(1_500).query.$expr.$and } } });
    expect(or.status).toBe(200);
    const tooMany = await send('/calls/stream_query', { json: and(2_500) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].msg).toBe('The query has more than 2000 operations; the limit is 2000 (WEFT_MAX_QUERY_OPERATIONS)');
  });

  it('answers 422 for $expr nested 900 deep, and answers a query nested right at the limit', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const notChain = (depth: number) => {
      let op: unknown = { $eq: [{ $getField: 'op_name' }, { $literal: 'x' }] };
      for (let i = 1; i < depth; i++) op = { $not: [op] };
      return { project_id: P, query: { $expr: op } };
    };
    const deep = await send('/calls/stream_query', { body: JSON.stringify(notChain(900)) });
    expect(deep.status).toBe(422);
    // The JSON depth limit or the query depth limit, whichever is met first, names itself.
    expect(deep.body.detail[0].msg).toMatch(/the limit is \d+ \(WEFT_MAX_(QUERY|JSON)_DEPTH\)/);
    const atLimit = await streamQuery(notChain(64));
    expect(atLimit.status).toBe(200);
    const over = await send('/calls/stream_query', { json: notChain(65) });
    expect(over.status).toBe(422);
    expect(over.body.detail[0].msg).toMatch(/the limit is 64 \(WEFT_MAX_QUERY_DEPTH\)/);
  });

  it('answers 422 for a NUL in a field path, in a query and in sort_by', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const q = await send('/calls/stream_query', {
      json: { project_id: P, query: { $expr: { $eq: [{ $getField: 'inputs.a\u0000b' }, { $literal: 'x' }] } } },
    });
    expect(q.status).toBe(422);
    expect(q.body.detail[0].loc).toEqual(['body', 'query', '$expr', '$eq', 0, '$getField']);
    const sort = await send('/calls/stream_query', { json: { project_id: P, sort_by: [{ field: 'inputs.\u0000', direction: 'asc' }] } });
    expect(sort.status).toBe(422);
    expect(sort.body.detail[0].loc).toEqual(['body', 'sort_by', 0, 'field']);
  });
});

describe('long id lists', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `missing-${i}`);

  it('answers /calls/usage for 40,000 call ids (more than SQLite binds in one statement)', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const { id } = await t.alice.client.callStart({
      start: { project_id: P, op_name: 'x', started_at: '2024-01-01T00:00:00Z', inputs: {} },
    });
    const res = await send('/calls/usage', { json: { project_id: P, call_ids: [...ids(40_000), id] } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.call_usage)).toHaveLength(40_001);
    expect(res.body.unfinished_call_ids).toEqual([id]);
  });

  it('answers /threads/stream_query for 40,000 thread ids', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const turn = {
      project_id: P,
      id: 'turn-1',
      op_name: 'x',
      started_at: '2024-01-01T00:00:00Z',
      inputs: {},
      thread_id: 'th-1',
      turn_id: 'turn-1',
    };
    await t.alice.client.callStart({ start: turn });
    const res = await t.fetch('/threads/stream_query', { json: { project_id: P, filter: { thread_ids: [...ids(40_000), 'th-1'] } } });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.thread_id)).toEqual(['th-1']);
  });

  it('answers 422 naming the limit for an id list past WEFT_MAX_ID_LIST', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const res = await send('/calls/usage', { json: { project_id: P, call_ids: ids(100_001) } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ['body', 'call_ids'],
      msg: 'call_ids has 100001 ids; the limit is 100000 (WEFT_MAX_ID_LIST)',
    });
  });
});

describe('OTLP times', () => {
  it('rejects a span whose time is outside what a date can hold, with a reason, and stores the others', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const span = (spanId: string, start: string) => ({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId,
      name: `span-${spanId}`,
      startTimeUnixNano: start,
      endTimeUnixNano: '1704067201500000000',
    });
    const res = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', project_id: P },
      body: JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              { spans: [span('a1b2c3d4e5f60718', '999999999999999999999999'), span('a1b2c3d4e5f60719', '1704067200000000000')] },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.partial_success).toMatchObject({
      rejected_spans: 1,
      error_message: expect.stringMatching(/a1b2c3d4e5f60718: start time is outside the years 1 to 9999/),
    });
    const q = await streamQuery({ project_id: P });
    expect(
      q.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['a1b2c3d4e5f60719']);
  });
});

describe('disk full', () => {
  it('answers 507 with a reason when SQLite reports the database full, writes nothing, and recovers', async () => {
    const P = `${t.alice.entity}/${project()}`;
    const db = (t.server.store as unknown as { db: { writer: import('better-sqlite3').Database } }).db.writer;
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    try {
      const big = 'x'.repeat(2_000_000);
      const res = await send('/call/start', {
        json: { start: { project_id: P, op_name: 'big', started_at: '2024-01-01T00:00:00Z', inputs: { big } } },
      });
      expect(res.status).toBe(507);
      expect(res.body.reason).toMatch(/out of storage space/);
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
    expect((await streamQuery({ project_id: P })).text).toBe('');
    const after = await send('/call/start', {
      json: { start: { project_id: P, op_name: 'small', started_at: '2024-01-01T00:00:00Z', inputs: {} } },
    });
    expect(after.status).toBe(200);
  });
});
