/**
 * Agent-history benchmark (docs/history-storage.md): N conversations × K turns, each turn an LLM
 * call whose inputs carry the whole message history as chat SDKs send it (a system prompt,
 * alternating user and assistant messages of realistic sizes, a few base64 images), sent over
 * HTTP (`/call/upsert_batch`) to a server storing history once and to one storing calls as sent.
 *
 *   npm run bench:history [-- --conversations 300 --turns 12,50 --clickhouse --once-only]
 *
 * Prints, for each K: the bytes sent, the SQLite file after a checkpoint (and the WAL before it),
 * the ratio stored / sent beside its goal (≤ 0.3 at K = 12, ≤ 0.1 at K = 50), and the ingest
 * rate with and without deduplication, measured in the same run (goal: within 10 %).
 * `--clickhouse` also sends the same calls to a ClickHouse engine and reports the bytes its
 * tables take on disk (system.parts), which keeps its own storage.
 */
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import { loadAverage, startBenchBackend, type BenchBackend } from './backend.js';
import { startBenchServer } from './lib.js';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '300' },
    turns: { type: 'string', default: '12,50' },
    batch: { type: 'string', default: '50' },
    clickhouse: { type: 'boolean', default: false },
    /** Only the server storing history once: its bytes, without the as-sent comparison. */
    'once-only': { type: 'boolean', default: false },
  },
});
const CONVERSATIONS = Number(values.conversations);
const BATCH = Number(values.batch);
const GOALS: Record<number, number> = { 12: 0.3, 50: 0.1 };

/** A deterministic PRNG (mulberry32), so every run sends the same text. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** ~4,000 made-up words from syllables, so word and trigram indexes grow as with real text. */
const SYLLABLES = 'ka lo mi ne ru sa te vi do pa re fo gu li na be so ti ma ko'.split(' ');
const WORDS = Array.from({ length: 4000 }, (_, i) => {
  const r = rng(i + 7);
  return Array.from({ length: 2 + Math.floor(r() * 3) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('');
});
const sentence = (r: () => number, words: number) => Array.from({ length: words }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const SYSTEM = `You are Acme's support agent. ${'Follow the policy exactly; use the tools to look orders up; answer briefly and cite the policy section. '.repeat(18)}`;

/** One conversation's calls, turn by turn: the request body of each turn's call. */
function conversation(conv: number, turns: number, project: string): { start: unknown; end: unknown }[] {
  const r = rng(conv + 1);
  const messages: unknown[] = [{ role: 'system', content: SYSTEM }];
  const out: { start: unknown; end: unknown }[] = [];
  const t0 = Date.UTC(2026, 0, 1) + conv * 3_600_000;
  for (let turn = 0; turn < turns; turn++) {
    const text = sentence(r, 30 + Math.floor(r() * 70));
    // One conversation in 10 sends a screenshot (~40 KB of base64) at its second turn.
    const image = conv % 10 === 0 && turn === 1;
    messages.push(
      image
        ? {
            role: 'user',
            content: [
              { type: 'text', text },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(sentence(r, 5000)).toString('base64')}` } },
            ],
          }
        : { role: 'user', content: text },
    );
    const reply = sentence(r, 80 + Math.floor(r() * 160));
    const id = `c${conv}-t${turn}`;
    const started = new Date(t0 + turn * 60_000).toISOString();
    const ended = new Date(t0 + turn * 60_000 + 2_000).toISOString();
    out.push({
      start: {
        project_id: project,
        id,
        trace_id: id,
        thread_id: `conv-${conv}`,
        turn_id: id,
        op_name: 'openai.chat.completions.create',
        started_at: started,
        attributes: {},
        inputs: { model: 'gpt-4o', temperature: 0.2, messages: [...messages] },
      },
      end: {
        project_id: project,
        id,
        ended_at: ended,
        output: {
          id: `chatcmpl-${conv}-${turn}`,
          object: 'chat.completion',
          model: 'gpt-4o',
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 200 * (turn + 1), completion_tokens: 150, total_tokens: 200 * (turn + 1) + 150 },
        },
        summary: { usage: { 'gpt-4o': { requests: 1, prompt_tokens: 200 * (turn + 1), completion_tokens: 150 } } },
      },
    });
    messages.push({ role: 'assistant', content: reply });
  }
  return out;
}

/** Request bodies in the order an agent fleet sends them: turn by turn across conversations. */
function bodies(turns: number, project: string): string[] {
  const convs = Array.from({ length: CONVERSATIONS }, (_, c) => conversation(c, turns, project));
  const items: unknown[] = [];
  for (let t = 0; t < turns; t++)
    for (const c of convs) items.push({ mode: 'start', req: { start: c[t]!.start } }, { mode: 'end', req: { end: c[t]!.end } });
  const out: string[] = [];
  for (let i = 0; i < items.length; i += 2 * BATCH) out.push(JSON.stringify({ batch: items.slice(i, i + 2 * BATCH) }));
  return out;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

interface Run {
  sent: number;
  /** This process's CPU (the server's and the client's, every thread) while sending, in µs. */
  cpu: number;
  /** The file's pages in use (less its free list), after the checkpoint. */
  used: number;
  seconds: number;
  file: number;
  wal: number;
}

/** Sends every body (4 in flight), waits for the search indexer, stops, checkpoints, measures. */
async function run(
  backend: BenchBackend,
  name: string,
  list: string[],
  env: Record<string, string>,
): Promise<Run & { clickhouse: number }> {
  const dataset = await backend.dataset(name);
  await dataset.store.close();
  const { server, post } = await startBenchServer(dataset.dataDir, { ...dataset.env, ...env });
  const sendRaw = (body: string) =>
    post('/call/upsert_batch', JSON.parse(body) as unknown).then(async (res) => {
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    });
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < list.length) await sendRaw(list[next++]!);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const { user, system } = process.cpuUsage(cpu0);
  const cpu = user + system;
  const sent = list.reduce((n, b) => n + Buffer.byteLength(b), 0);
  let clickhouse = 0;
  let wal = 0;
  let file = 0;
  let used = 0;
  if (dataset.sqliteFile) {
    // The substring index is built behind the writes: wait for it, as its size is stored too.
    const peek = new Database(dataset.sqliteFile, { readonly: true });
    for (let i = 0; i < 600; i++) {
      if ((peek.prepare('SELECT count(*) AS n FROM call_search_queue').get() as { n: number }).n === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // And for the idle writer to give the free pages back (callSearch.ts reclaimFreePages).
    for (let i = 0; i < 100; i++) {
      const free = peek.pragma('freelist_count', { simple: true }) as number;
      if (free <= 64 || (peek.pragma('auto_vacuum', { simple: true }) as number) !== 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    peek.close();
    wal = size(`${dataset.sqliteFile}-wal`);
    await server.close();
    const db = new Database(dataset.sqliteFile);
    db.pragma('wal_checkpoint(TRUNCATE)');
    if (process.env.BENCH_TABLES) {
      const top = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 14').all() as {
        name: string;
        bytes: number;
      }[];
      console.log(`  ${name}: ${top.map((t) => `${t.name} ${mb(t.bytes)}`).join(', ')}`);
    }
    if (process.env.BENCH_KEEP) db.exec(`VACUUM INTO '${process.env.BENCH_KEEP}/${name}.sqlite'`);
    const pages = (pragma: string) => db.pragma(pragma, { simple: true }) as number;
    used = (pages('page_count') - pages('freelist_count')) * pages('page_size');
    db.close();
    file = size(dataset.sqliteFile);
  } else {
    await server.close();
    const db = new ClickHouseDatabase({ ...dataset.clickhouse!, database: 'default' });
    await db.command(`OPTIMIZE TABLE ${dataset.clickhouse!.database}.calls FINAL`).catch(() => {});
    const rows = await db.all<{ bytes: string }>(
      `SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {db:String} AND active`,
      { db: dataset.clickhouse!.database },
    );
    clickhouse = Number(rows[0]?.bytes ?? 0);
    await db.close();
  }
  return { sent, cpu, seconds, file, wal, used, clickhouse };
}

const sqlite = await startBenchBackend('sqlite');
const clickhouse = values.clickhouse ? await startBenchBackend('clickhouse') : null;
console.log(`Agent history: ${CONVERSATIONS} conversations, ${BATCH} calls per request, 4 in flight; load average ${loadAverage()}`);
try {
  for (const turns of values.turns.split(',').map(Number)) {
    const list = bodies(turns, 'bench/history');
    const calls = CONVERSATIONS * turns;
    const once = await run(sqlite, `once_${turns}`, list, { WEFT_HISTORY_DEDUP: '1' });
    const ratio = once.file / once.sent;
    const goal = GOALS[turns];
    const rate = (r: Run) => calls / r.seconds;
    // Wall-clock rates swing with the machine's load; CPU per call hardly does.
    const cpu = (r: Run) => `${(r.cpu / calls).toFixed(0)} µs CPU per call`;
    console.log(`K = ${turns}: ${calls} calls, ${mb(once.sent)} of JSON sent`);
    console.log(
      `  SQLite, history once : ${mb(once.file)} after a checkpoint (in use ${mb(once.used)}; WAL before it ${mb(once.wal)}), ratio ${ratio.toFixed(3)}` +
        (goal ? ` (goal ≤ ${goal} ${ratio <= goal ? '✓' : '✗'})` : '') +
        `; ${cpu(once)}`,
    );
    if (values['once-only']) continue;
    const asSent = await run(sqlite, `sent_${turns}`, list, { WEFT_HISTORY_DEDUP: '0' });
    console.log(
      `  SQLite, as sent      : ${mb(asSent.file)} after a checkpoint (in use ${mb(asSent.used)}; WAL before it ${mb(asSent.wal)}), ratio ${(asSent.file / asSent.sent).toFixed(3)}; ${cpu(asSent)}`,
    );
    const speed = rate(once) / rate(asSent);
    console.log(
      `  ingest: history once ${rate(once).toFixed(0)} calls/s, as sent ${rate(asSent).toFixed(0)} calls/s, ratio ${speed.toFixed(2)} (goal ≥ 0.9 ${speed >= 0.9 ? '✓' : '✗'})`,
    );
    if (clickhouse) {
      const ch = await run(clickhouse, `ch_${turns}`, list, {});
      console.log(
        `  ClickHouse           : ${mb(ch.clickhouse)} on disk (system.parts), ratio ${(ch.clickhouse / ch.sent).toFixed(3)}, ${(calls / ch.seconds).toFixed(0)} calls/s`,
      );
    }
  }
  console.log(`load average ${loadAverage()}`);
} finally {
  await sqlite.close();
  await clickhouse?.close();
}
