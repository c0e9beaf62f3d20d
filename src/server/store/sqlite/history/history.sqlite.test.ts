/**
 * Repeated content stored once (docs/history-storage.md): the same agent conversations, media
 * and edge cases written to a server storing them once and to one storing each call as sent
 * read back the same, byte for byte, through every read; and the first stores far less.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../../testing/serverSuite.js';
import type { TestServer } from '../../../testing/testServer.js';

const once = useTestServer({ env: { WEFT_HISTORY_DEDUP: '1' } });
const asSent = useTestServer({ env: { WEFT_HISTORY_DEDUP: '0' } });

const T0 = Date.UTC(2025, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const SYSTEM = `You are a careful support agent for Weft. ${'Answer in the user\u2019s language; cite the policy; never invent order numbers. '.repeat(24)}`;
// 1x1 PNG padded to a realistic size: canonical base64, so it is kept as bytes.
const IMAGE = `data:image/png;base64,${Buffer.alloc(3000, 7).toString('base64')}`;
/** The reply of a call without history: under 1 KB, it stays in its row. */
const PLAIN_REPLY = `Plain reply: ${'the order is on its way. '.repeat(14)}`;
const AUDIO = Buffer.from(Array.from({ length: 2400 }, (_, i) => (i * 31) % 256)).toString('base64');

/**
 * The request bodies, as hand-written JSON text: numbers as a client may spell them (1.0, 1e21,
 * -0), keys out of order and numeric, unicode, nested arrays.
 */
function bodies(entity: string): string[] {
  const project = JSON.stringify(`${entity}/hist`);
  const out: string[] = [];
  // Conversation 4's replies are under 1 KB, and its calls' ends come in requests of their own.
  for (const conv of [1, 2, 3, 4]) {
    const messages: string[] = [JSON.stringify({ role: 'system', content: SYSTEM })];
    for (let turn = 1; turn <= 6; turn++) {
      const id = `c${conv}-t${turn}`;
      const user =
        turn === 2
          ? `{"role":"user","content":[{"type":"text","text":"What is in this picture? 画像 🖼️"},{"type":"image_url","image_url":{"url":"${IMAGE}"}}]}`
          : turn === 3
            ? `{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"${AUDIO}","format":"wav"}}]}`
            : JSON.stringify({ role: 'user', content: `Turn ${turn} of conversation ${conv}: ${'where is my refund? '.repeat(30)} مرحبا` });
      messages.push(user);
      // Conversation 2 edits an earlier message at turn 5; conversation 3 shrinks its history at turn 4.
      if (conv === 2 && turn === 5) messages[1] = JSON.stringify({ role: 'user', content: 'edited first question' });
      const sent = conv === 3 && turn === 4 ? messages.slice(0, 3) : messages;
      const reply =
        conv === 4
          ? `Short reply ${turn}: ${'Your parcel left the depot today. '.repeat(12)}`
          : `Reply ${turn}: ${'Your refund was issued on the 3rd; it takes 5\u201310 days. '.repeat(20 + conv)}`;
      const inputs = `{"model":"gpt-4o","temperature":1.0,"seed":1e21,"z":-0,"b":{"10":1,"2":[[1,[2,3]],[]],"a":null},"messages":[${sent.join(',')}],"n":${turn}}`;
      const output = `{"choices":[{"index":0,"message":{"role":"assistant","content":${JSON.stringify(reply)}}}],"usage":{"prompt_tokens":${100 * turn},"completion_tokens":${20 + turn}}}`;
      const started = conv * 100 + turn * 10;
      const end = `{"mode":"end","req":{"end":{"project_id":${project},"id":"${id}","ended_at":"${at(started + 2)}","output":${output},"summary":{}}}}`;
      const starts = `{"mode":"start","req":{"start":{"project_id":${project},"id":"${id}","trace_id":"tr-${conv}-${turn}","thread_id":"th-${conv}","turn_id":"${id}",
        "op_name":"openai.chat.completions.create","started_at":"${at(started)}","attributes":{},"inputs":${inputs}}}},
        {"mode":"start","req":{"start":{"project_id":${project},"id":"${id}-tool","trace_id":"tr-${conv}-${turn}","parent_id":"${id}",
        "op_name":"tool","started_at":"${at(started + 1)}","attributes":{},"inputs":{"history":[${sent.join(',')}]}}}}`;
      out.push(...(conv === 4 ? [`{"batch":[${starts}]}`, `{"batch":[${end}]}`] : [`{"batch":[${starts},${end}]}`]));
      messages.push(JSON.stringify({ role: 'assistant', content: reply }));
    }
  }
  // Edge cases, each in a call of its own: the marker key itself, and a text too short to touch.
  out.push(`{"batch":[{"mode":"start","req":{"start":{"project_id":${project},"id":"edge-marker","trace_id":"tr-edge","op_name":"edge",
    "started_at":"${at(900)}","attributes":{},"inputs":{"__weft_ref":"${'x'.repeat(3000)}","y":{"__weft_ref":"s${'A'.repeat(43)}"}}}}},
    {"mode":"start","req":{"start":{"project_id":${project},"id":"edge-small","trace_id":"tr-edge","op_name":"edge",
    "started_at":"${at(901)}","attributes":{},"inputs":{"a":1.50,"b":"short"}}}},
    {"mode":"start","req":{"start":{"project_id":${project},"id":"edge-plain","trace_id":"tr-edge","op_name":"edge",
    "started_at":"${at(902)}","attributes":{},"inputs":{"q":"hi"}}}},
    {"mode":"end","req":{"end":{"project_id":${project},"id":"edge-plain","ended_at":"${at(903)}","summary":{},
    "output":{"content":"${PLAIN_REPLY}","note":"${'n'.repeat(300)}"}}}}]}`);
  return out;
}

/** The answer's text, failing on anything but 200. */
async function text(t: TestServer, path: string, json: unknown): Promise<string> {
  const res = await t.fetch(path, { method: 'POST', body: JSON.stringify(json) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
  return body;
}

const field = (name: string) => ({ $getField: name });

describe('history stored once (SQLite)', () => {
  let project = '';
  beforeAll(async () => {
    project = `${once.alice.entity}/hist`;
    for (const t of [once, asSent]) {
      for (const body of bodies(t.alice.entity)) {
        const res = await t.fetch('/call/upsert_batch', { method: 'POST', body });
        expect(res.status, await res.clone().text()).toBe(200);
      }
    }
  });

  it('answers every read the same, byte for byte, as a server storing calls as sent', async () => {
    const reads: [string, unknown][] = [
      ['/calls/stream_query', { project_id: project }],
      ['/calls/stream_query', { project_id: project, include_storage_size: true, include_total_storage_size: true }],
      ['/calls/stream_query', { project_id: project, columns: ['id', 'inputs.messages', 'output.choices'] }],
      ['/calls/query', { project_id: project, sort_by: [{ field: 'inputs.n', direction: 'desc' }] }],
      [
        '/calls/stream_query',
        {
          project_id: project,
          query: { $expr: { $contains: { input: field('inputs.messages.2.content'), substr: { $literal: 'refund' } } } },
          sort_by: [{ field: 'inputs.messages.1.content', direction: 'asc' }],
        },
      ],
      [
        '/calls/stream_query',
        { project_id: project, query: { $expr: { $eq: [field('inputs.messages.0.role'), { $literal: 'system' }] } } },
      ],
      [
        '/calls/stream_query',
        {
          project_id: project,
          query: { $expr: { $gt: [{ $convert: { input: field('output.usage.prompt_tokens'), to: 'int' } }, { $literal: 300 }] } },
        },
      ],
      [
        '/calls/stream_query',
        { project_id: project, query: { $expr: { $contains: { input: field('inputs.y'), substr: { $literal: 'AAAA' } } } } },
      ],
      [
        '/calls/query_stats',
        { project_id: project, query: { $expr: { $contains: { input: field('inputs'), substr: { $literal: 'edited first' } } } } },
      ],
      ['/calls/stream_query', { project_id: project, filter: { search: 'refund was issued' } } as unknown],
      ['/call/read', { project_id: project, id: 'c2-t6' }],
      ['/call/read', { project_id: project, id: 'c1-t2', include_storage_size: true }],
      ['/call/read', { project_id: project, id: 'edge-marker' }],
      ['/weft/trace/outline', { project_id: project, trace_id: 'tr-1-6' }],
      ['/threads/stream_query', { project_id: project }],
      ['/threads/stream_query', { project_id: project, filter: { search: 'refund' } } as unknown],
      ['/weft/calls/export', { project_id: project, format: 'jsonl' }],
      ['/weft/calls/export', { project_id: project, format: 'csv' }],
      ['/project/stats', { project_id: project, include_trace_storage_size: true }],
    ];
    for (const [path, req] of reads) {
      const [a, b] = [await text(once, path, req), await text(asSent, path, req)];
      expect(a.length, `${path} ${JSON.stringify(req)}`).toBeGreaterThan(2);
      expect(a, `${path} ${JSON.stringify(req)}`).toBe(b);
    }
    // The reads above did see the content: the history, its media, and the edge cases, as sent.
    const read = JSON.parse(await text(once, '/call/read', { project_id: project, id: 'c1-t3' })).call;
    expect(read.inputs.messages[3].content[1].image_url.url).toBe(IMAGE);
    expect(read.inputs.messages[5].content[0].input_audio.data).toBe(AUDIO);
    expect(read.inputs.temperature).toBe(1);
    expect(Object.keys(read.inputs.b)).toEqual(['2', '10', 'a']);
  });

  it('stores the repeated history and media once', () => {
    const stored = (t: TestServer) => {
      const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
      try {
        return db
          .prepare(
            `SELECT (SELECT sum(length(inputs) + coalesce(length(output), 0)) FROM calls WHERE project_id = ?) AS calls,
               (SELECT coalesce(sum(length(body) + coalesce(length(bytes), 0)), 0) FROM history_blobs WHERE project_id = ?) AS blobs,
               (SELECT count(*) FROM history_blobs WHERE project_id = ? AND bytes IS NOT NULL) AS media`,
          )
          .get(project, project, project) as { calls: number; blobs: number; media: number };
      } finally {
        db.close();
      }
    };
    const a = stored(once);
    const b = stored(asSent);
    expect(b.blobs).toBe(0);
    // A short reply of an agent's turn is stored once, apart, for the history that re-sends it;
    // a call without history keeps its reply in its row.
    const holding = (t: TestServer, text: string) => {
      const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
      try {
        return db
          .prepare(
            `SELECT (SELECT count(*) FROM calls WHERE output LIKE '%' || ? || '%') AS calls,
               (SELECT count(*) FROM history_blobs WHERE body LIKE '%' || ? || '%') AS blobs`,
          )
          .get(text, text);
      } finally {
        db.close();
      }
    };
    for (const turn of [1, 2, 6]) expect(holding(once, `Short reply ${turn}:`)).toEqual({ calls: 0, blobs: 1 });
    expect(holding(once, 'Plain reply:')).toEqual({ calls: 1, blobs: 0 });
    // Two media blobs per conversation's image and audio at most: each stored once, as bytes.
    expect(a.media).toBe(2);
    expect(a.calls + a.blobs).toBeLessThan(b.calls * 0.35);
  });
});
