/**
 * A thread's search document holds each distinct string once (threadExtras.ts,
 * docs/history-storage.md "Search"): an agent's turns re-send the whole history, and a word of
 * an early message still finds the thread, and every later call carrying it, after the early
 * turn is gone.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';

const t = useTestServer();
const P = 'alice-co/threaddoc';
const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const SYSTEM = `You are a support agent. ${'Follow the refund policy and cite its section. '.repeat(60)}`;
const TURNS = 5;
const ids = Array.from({ length: TURNS }, (_, i) => `turn-${i + 1}`);

/** Turn k sends the system prompt and every earlier message again, as chat SDKs do. */
beforeAll(async () => {
  const messages: { role: string; content: string }[] = [{ role: 'system', content: SYSTEM }];
  for (let k = 1; k <= TURNS; k++) {
    const question =
      k === 1 ? 'My xylophonequartz order never arrived, where is it?' : `Question ${k}: ${'and what about shipping? '.repeat(20)}`;
    messages.push({ role: 'user', content: question });
    const id = ids[k - 1]!;
    const reply = `Answer ${k}: ${'we are looking into your parcel today. '.repeat(25)}`;
    await t.alice.client.callUpsertBatch({
      batch: [
        {
          mode: 'start',
          req: {
            start: {
              project_id: P,
              id,
              trace_id: `tr-${id}`,
              thread_id: 'support',
              turn_id: id,
              op_name: 'openai.chat.completions.create',
              started_at: at(k * 10),
              attributes: {},
              inputs: { model: 'gpt-4o', messages: [...messages] },
            },
          },
        },
        {
          mode: 'end',
          req: { end: { project_id: P, id, ended_at: at(k * 10 + 2), output: { role: 'assistant', content: reply }, summary: {} } },
        },
      ],
    });
    messages.push({ role: 'assistant', content: reply });
  }
});

const threads = async (search: string) => {
  const out: string[] = [];
  for await (const th of t.alice.client.threadsStreamQuery({ project_id: P, filter: { search } })) out.push(th.thread_id);
  return out;
};
const calls = async (search: string) => {
  const out: string[] = [];
  for await (const c of t.alice.client.callsStreamQuery({ project_id: P, filter: { search } })) out.push(c.id);
  return out.sort();
};

/** How many times the thread documents hold `term` (FTS5's own vocabulary of thread_search). */
function occurrences(term: string): number {
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, 'thread_search', 'row')");
    return (db.prepare('SELECT cnt FROM temp.words WHERE term = ?').get(term) as { cnt: number } | undefined)?.cnt ?? 0;
  } finally {
    db.close();
  }
}

describe('the thread search document', () => {
  it("holds each message once, however many turns re-send it, and an early turn's word finds the thread", async () => {
    // Every turn sends the first question and the system prompt; the document holds them once.
    expect(occurrences('xylophonequartz')).toBe(1);
    expect(occurrences('policy')).toBe(60); // one copy of the system prompt
    expect(await threads('xylophonequartz')).toEqual(['support']);
    expect(await threads('xylophoneq refund')).toEqual(['support']);
    // The calls search finds the first turn and every later one carrying it in its history.
    expect(await calls('xylophonequartz')).toEqual(ids);
  });

  it('keeps finding the thread by a word of its first turn once that turn is deleted', async () => {
    await t.alice.client.callsDelete({ project_id: P, call_ids: [ids[0]!] });
    expect(occurrences('xylophonequartz')).toBe(1);
    expect(await threads('xylophonequartz')).toEqual(['support']);
    expect(await calls('xylophonequartz')).toEqual(ids.slice(1));
  });
});
