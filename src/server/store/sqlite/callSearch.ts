/**
 * The calls' substring index on SQLite (docs/search.md): the FTS5 table `call_search` with the
 * `trigram` tokenizer, contentless and without positions (`detail=none`), two documents per
 * call keyed by the call row's rowid: its start part (inputs and attributes, rowid × 2) and its
 * end part (output and exception, rowid × 2 + 1).
 *
 * Indexed behind the writes: a trigram index costs ~0.3 ms of CPU per 1 KB call, five times a
 * call's whole write, so a write only queues its call (`call_search_queue`, by rowid) and
 * `CallSearchIndexer` indexes the queue when the writer is idle (or when the queue grows long).
 * Searches stay exact meanwhile: every queued call is a candidate.
 *
 * The index narrows, the rule decides: candidates are the `MATCH` of the trigram index (a
 * superset of the matches: FTS5 folds case at least as much as the rule) and the queued calls;
 * the rule of query/callsSearch.ts (the SQL function `weft_search_match`, searchFunctions.ts) decides. A part
 * longer than `INDEXED_CHARS` is indexed up to there and marked with `PARTIAL_MARK`, which every
 * search also matches, so a long call is always a candidate and the rule reads it whole.
 */
import type { CallsSearch } from '../query/index.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { raw, sql, type SqlFragment } from './sql.js';
import { payloadSql } from './history/historyBlobs.js';

/** Characters of a part's text that are indexed; a longer part is a candidate of every search. */
export const INDEXED_CHARS = 65_536;

/** Three control characters: never in JSON text nor in a search, they make one trigram of their own. */
export const PARTIAL_MARK = '\u0001\u0001\u0001';

/** A part's document: its texts, joined by a line break (never inside JSON text), cut and marked when long. */
export function partDocument(a: string | null | undefined, b: string | null | undefined): string {
  const text = `${a ?? ''}\n${b ?? ''}`;
  return text.length > INDEXED_CHARS ? text.slice(0, INDEXED_CHARS) + PARTIAL_MARK : text;
}

/** A write queues its call for the indexer, by rowid (one small row, whichever parts it wrote). */
export const QUEUE_CALL_SQL = 'INSERT OR IGNORE INTO call_search_queue (call_rowid) VALUES (?)';

/** Trigrams of a needle looked up at most: any subset still finds every call holding it. */
const MAX_TRIGRAMS = 64;

/**
 * The FTS5 query of a search: any needle's trigrams all in one part, or a cut document. The
 * index keeps no positions (`detail=none`, migration 33), so a needle is the AND of its trigrams
 * rather than their phrase: a few more candidates, which the rule rules out.
 */
export function matchQuery(search: CallsSearch): string {
  const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
  const needle = (n: string) => {
    const chars = Array.from(n);
    const trigrams = new Set<string>();
    for (let i = 0; i + 3 <= chars.length && trigrams.size < MAX_TRIGRAMS; i++) trigrams.add(chars.slice(i, i + 3).join(''));
    return `(${[...trigrams].map(quote).join(' AND ')})`;
  };
  return [...search.needles.map(needle), quote(PARTIAL_MARK)].join(' OR ');
}

// Inputs and output as their original text (docs/history-storage.md).
const COLUMNS = `${payloadSql('inputs')}, ${payloadSql('output')}, calls.attributes, calls.exception`;

/** The search filter over `calls`: candidates from the index, decided by the rule. */
export function searchClause(search: CallsSearch): SqlFragment {
  const [first, second = null] = search.needles;
  return sql`(${searchCandidates(search)} AND weft_search_match(${raw(COLUMNS)}, ${bound(first!)}, ${bound(second)}))`;
}

/** The calls the index cannot rule out: its MATCH, and every queued call. */
export function searchCandidates(search: CallsSearch): SqlFragment {
  return sql`calls.rowid IN (SELECT rowid >> 1 FROM call_search WHERE call_search MATCH ${bound(matchQuery(search))}
      UNION ALL SELECT call_rowid FROM call_search_queue)`;
}

/** 1 for a call holding a needle as a whole word, else 0 (a sort key). */
export function searchWordSql(search: CallsSearch): SqlFragment {
  const [first, second = null] = search.needles;
  return sql`weft_search_word(${raw(COLUMNS)}, ${bound(first!)}, ${bound(second)})`;
}

const bound = (value: string | null): SqlFragment => ({ sql: '?', params: [value] });

interface PartRow {
  inputs_chars: number | null;
  output_chars: number | null;
  inputs: string | null;
  attributes: string | null;
  output: string | null;
  exception: string | null;
}

/**
 * Indexes queued calls (both parts' documents), oldest first, in one write transaction, until
 * `budgetMs` is spent or `maxCalls` are done; answers how many. A call whose row is gone loses
 * its documents.
 */
export function indexQueuedDocs(db: SqliteDatabase, budgetMs: number, maxCalls = 2500): number {
  const t0 = performance.now();
  const next = db.prepare('SELECT call_rowid FROM call_search_queue ORDER BY call_rowid LIMIT ?');
  const read = db.prepare('SELECT inputs, attributes, output, exception, inputs_chars, output_chars FROM calls WHERE rowid = ?');
  const write = db.prepare('INSERT OR REPLACE INTO call_search (rowid, body) VALUES (?, ?)');
  const drop = db.prepare('DELETE FROM call_search WHERE rowid = ?');
  const done = db.prepare('DELETE FROM call_search_queue WHERE call_rowid = ?');
  let n = 0;
  db.transaction(() => {
    const calls = (next.all(maxCalls) as { call_rowid: number }[]).map((r) => r.call_rowid);
    for (const rowid of calls) {
      const row = read.get(rowid) as PartRow | undefined;
      if (!row) {
        drop.run(rowid * 2);
        drop.run(rowid * 2 + 1);
      } else {
        // A part holding markers is only the mark: a candidate of every search, decided on its
        // original text (docs/history-storage.md "Search").
        write.run(rowid * 2, row.inputs_chars == null ? partDocument(row.inputs, row.attributes) : PARTIAL_MARK);
        write.run(rowid * 2 + 1, row.output_chars == null ? partDocument(row.output, row.exception) : PARTIAL_MARK);
      }
      done.run(rowid);
      n++;
      if (n % 64 === 0 && performance.now() - t0 > budgetMs) break;
    }
  });
  return n;
}

/** How many calls wait for the indexer. */
export const queuedDocs = (db: SqliteDatabase): number =>
  (db.get<{ n: number }>('SELECT count(*) AS n FROM call_search_queue') ?? { n: 0 }).n;

/** The writer counts as idle this long after its last call write. */
const IDLE_MS = 250;
/** A queue this long is indexed even while writes go on, so searches do not scan an ever longer tail. */
const LONG_QUEUE = 100_000;
/** Free pages given back to the file system per idle tick at most (2 MB), so a tick stays short. */
const RECLAIM_PAGES = 512;
/** So many free pages are left for the next writes to reuse. */
const KEEP_FREE_PAGES = 64;
/** Ticks between looks at the free list when no call was written (deletes free pages too). */
const RECHECK_TICKS = 600;

/**
 * Gives free pages at the end of the file back, up to `maxPages`, when the file was made with
 * incremental auto_vacuum (a new file: SqliteDatabase.ts); answers how many. The FTS indexes'
 * merges and rewritten documents leave pages free that only this returns (docs/search.md
 * "Free pages").
 */
export function reclaimFreePages(db: SqliteDatabase, maxPages: number): number {
  const writer = db.writer;
  if ((writer.pragma('auto_vacuum', { simple: true }) as number) !== 2) return 0;
  const free = writer.pragma('freelist_count', { simple: true }) as number;
  if (free <= KEEP_FREE_PAGES) return 0;
  const n = Math.min(maxPages, free - KEEP_FREE_PAGES);
  writer.pragma(`incremental_vacuum(${n})`);
  return n;
}

/**
 * Indexes the queue in the background on the writer's connection: a tick every 100 ms indexes
 * for up to 50 ms when no call was written for IDLE_MS, or when the queue is long. Once the
 * queue is empty, idle ticks give the pages the indexes freed back (`reclaimFreePages`).
 */
export class CallSearchIndexer {
  readonly #db: SqliteDatabase;
  readonly #timer: NodeJS.Timeout;
  #lastWrite = 0;
  #queued = 0;
  /** Whether pages may have been freed since the free list was last found short. */
  #mayReclaim = true;
  #ticks = 0;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#queued = queuedDocs(db);
    this.#timer = setInterval(() => this.#tick(), 100);
    this.#timer.unref();
  }

  /** Told by each call write, with how many calls it queued. */
  wrote(calls: number): void {
    this.#lastWrite = performance.now();
    this.#queued += calls;
    this.#mayReclaim = true;
  }

  #tick(): void {
    if (++this.#ticks % RECHECK_TICKS === 0) this.#mayReclaim = true;
    if (this.#queued === 0 && !this.#mayReclaim) return;
    if (performance.now() - this.#lastWrite < IDLE_MS && this.#queued < LONG_QUEUE) return;
    // Without waiting for a write lock another connection holds: this runs on the main thread,
    // where busy_timeout's wait would stall every request (and /ready) for its 5 s.
    const writer = this.#db.writer;
    const busyTimeout = writer.pragma('busy_timeout', { simple: true }) as number;
    try {
      writer.pragma('busy_timeout = 0');
      if (this.#queued > 0) {
        const n = indexQueuedDocs(this.#db, 50);
        this.#queued = n === 0 ? 0 : Math.max(0, this.#queued - n);
      } else if (reclaimFreePages(this.#db, RECLAIM_PAGES) === 0) {
        this.#mayReclaim = false;
      }
    } catch {
      // Busy (another process holds the write lock) or closing: the next tick tries again.
    } finally {
      if (writer.open) writer.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
