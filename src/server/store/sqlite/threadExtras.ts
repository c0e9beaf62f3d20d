/**
 * What Weft keeps per thread beside `thread_stats`: the thread's full-text document (the
 * distinct string values of its turns' inputs and outputs, in the `thread_search` FTS5 table), its
 * tokens per model (`thread_usage`, which prices a thread without reading its turns), and its
 * turns' facts (`thread_turn_facts`, from which date-filtered statistics are computed).
 *
 * Beside them `thread_attributes`: the scalar leaves of its live turns' attributes, each
 * (path, value) once per thread, which the attribute filter looks up (threadsFilter.ts).
 *
 * Contract: `refreshThreadExtras` runs inside the write transaction that refreshes
 * `thread_stats`, for the same stale threads, so search and cost never lag the statistics.
 * A thread without live turns loses both.
 */
import { jsonPath } from './jsonSql.js';
import { payloadSql } from './history/historyBlobs.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { completionTokensSql, promptTokensSql, USAGE_ENTRY_WHERE, usageEntriesSql } from './usageSql.js';

const LIVE_TURN = 'c.project_id = ? AND c.thread_id = ? AND c.turn_id = c.id AND c.started_at IS NOT NULL AND c.deleted_at IS NULL';

/** Characters of each turn's inputs and of its output that are indexed (long blobs are cut). */
const TEXT_PER_SIDE = 8000;

/** A thread's live turns, in the order they were written. */
const TURNS_SQL = `SELECT c.rowid FROM calls c WHERE ${LIVE_TURN} ORDER BY c.rowid`;

/** A turn side's string values, in document order (json_tree's). */
const stringsOf = (column: string) => `SELECT j.value FROM calls c, json_tree(${column}) j WHERE c.rowid = ? AND j.type = 'text'`;
const INPUT_STRINGS_SQL = stringsOf(payloadSql('inputs', 'c'));
const OUTPUT_STRINGS_SQL = stringsOf(payloadSql('output', 'c'));

const SURROGATE = /[\uD800-\uDFFF]/;
/** Length in characters, as SQLite's length() counts them (code points). */
const charCount = (s: string) => (SURROGATE.test(s) ? Array.from(s).length : s.length);
const firstChars = (s: string, n: number) => (SURROGATE.test(s) ? Array.from(s).slice(0, n).join('') : s.slice(0, n));

/**
 * A thread's document: each turn side's string values, joined by spaces and cut to
 * TEXT_PER_SIDE characters (as the ClickHouse rule cuts them: clickhouse/threadSearch.ts), but
 * each string (or its part before the cut) only the first time the thread carries it. A turn
 * repeats the history the turns before it sent, so indexing every turn whole made the document
 * grow as turns² (docs/history-storage.md "Search"); the words, and so the matches, are the same.
 */
function threadDocument(turns: number[], sides: Statement[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const turn of turns) {
    for (const side of sides) {
      let start = 0;
      for (const value of side.iterate(turn) as Iterable<string>) {
        const chars = charCount(value);
        const unit = start + chars <= TEXT_PER_SIDE ? value : firstChars(value, TEXT_PER_SIDE - start);
        if (unit && !seen.has(unit)) {
          seen.add(unit);
          parts.push(unit);
        }
        start += chars + 1;
        if (start >= TEXT_PER_SIDE) break;
      }
    }
  }
  return parts.join(' ');
}

/** Longer attribute strings are not indexed; a filter on such a value scans the turns instead. */
export const MAX_INDEXED_ATTRIBUTE_CHARS = 1024;

/** Every node of every live turn's attributes, as json_tree gives them (atom: the SQL value of a leaf). */
const ATTRIBUTE_NODES_SQL = `SELECT c.id AS turn, j.id, j.parent, j.key, j.type, j.atom
  FROM calls c, json_tree(c.attributes) j WHERE ${LIVE_TURN} AND json_valid(c.attributes)`;

interface AttributeNode {
  turn: string;
  id: number;
  parent: number | null;
  key: string | number | null;
  type: string;
  atom: unknown;
}

/**
 * The (path, value) leaves of a thread's turns' attributes, paths spelled as the filter spells
 * them (`jsonPath`: array indexes `[n]`, keys quoted). A leaf under an object key made only of
 * digits is skipped: the filter reads such a path part as an array index, so it never matches.
 */
function attributeLeaves(nodes: AttributeNode[]): [string, unknown][] {
  const parts = new Map<string, string[] | null>();
  const out: [string, unknown][] = [];
  for (const n of nodes) {
    const parentParts = n.parent === null ? [] : parts.get(`${n.turn}\u0000${n.parent}`);
    let own: string[] | null = null;
    if (parentParts) {
      if (n.parent === null) own = [];
      else if (typeof n.key === 'number') own = [...parentParts, String(n.key)];
      else if (typeof n.key === 'string' && !/^\d+$/.test(n.key)) own = [...parentParts, n.key];
    }
    parts.set(`${n.turn}\u0000${n.id}`, own);
    if (!own || own.length === 0 || n.type === 'object' || n.type === 'array' || n.type === 'null') continue;
    if (typeof n.atom === 'string' && n.atom.length > MAX_INDEXED_ATTRIBUTE_CHARS) continue;
    out.push([jsonPath(own), n.atom]);
  }
  return out;
}

const USAGE_SQL = `INSERT INTO thread_usage (project_id, thread_id, model, prompt_tokens, completion_tokens)
  SELECT c.project_id, c.thread_id, u.key, sum(${promptTokensSql('u.value')}), sum(${completionTokensSql('u.value')})
  FROM calls c, ${usageEntriesSql('c.summary')}
  WHERE ${LIVE_TURN} AND ${USAGE_ENTRY_WHERE}
  GROUP BY u.key`;

/**
 * Rebuilds the search document, usage and turn facts of each listed thread. Call inside a
 * write transaction. `turnFactsSql` selects (thread_id, id, started_at, ended_at, failed,
 * tokens) of a thread's live turns, bound to (project_id, thread_id): the same facts the
 * statistics are computed from.
 */
export function refreshThreadExtras(db: SqliteDatabase, threads: { project_id: string; thread_id: string }[], turnFactsSql: string): void {
  const seen = new Set<string>();
  const dropFacts = db.prepare('DELETE FROM thread_turn_facts WHERE project_id = ? AND thread_id = ?');
  const addFacts = db.prepare(`INSERT INTO thread_turn_facts (project_id, thread_id, id, started_at, ended_at, failed, tokens)
    SELECT ?, thread_id, id, started_at, ended_at, failed, tokens FROM (${turnFactsSql})`);
  const turnsOf = db.prepare(TURNS_SQL).pluck();
  const sides = [db.prepare(INPUT_STRINGS_SQL).pluck(), db.prepare(OUTPUT_STRINGS_SQL).pluck()];
  const docId = db.prepare('SELECT doc_id FROM thread_search_docs WHERE project_id = ? AND thread_id = ?');
  const dropDoc = db.prepare('DELETE FROM thread_search WHERE rowid = ?');
  const dropDocId = db.prepare('DELETE FROM thread_search_docs WHERE project_id = ? AND thread_id = ?');
  const addDoc = db.prepare('INSERT INTO thread_search (rowid, body) VALUES (?, ?)');
  const addDocNew = db.prepare('INSERT INTO thread_search (body) VALUES (?)');
  const addDocId = db.prepare('INSERT INTO thread_search_docs (project_id, thread_id, doc_id) VALUES (?, ?, ?)');
  const dropUsage = db.prepare('DELETE FROM thread_usage WHERE project_id = ? AND thread_id = ?');
  const addUsage = db.prepare(USAGE_SQL);
  const attributeNodes = db.prepare(ATTRIBUTE_NODES_SQL);
  const dropAttributes = db.prepare('DELETE FROM thread_attributes WHERE project_id = ? AND thread_id = ?');
  const addAttribute = db.prepare('INSERT OR IGNORE INTO thread_attributes (project_id, path, value, thread_id) VALUES (?, ?, ?, ?)');
  for (const { project_id, thread_id } of threads) {
    const key = `${project_id}\u0000${thread_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    dropUsage.run(project_id, thread_id);
    addUsage.run(project_id, thread_id);
    dropFacts.run(project_id, thread_id);
    addFacts.run(project_id, project_id, thread_id);
    dropAttributes.run(project_id, thread_id);
    for (const [path, value] of attributeLeaves(attributeNodes.all(project_id, thread_id) as AttributeNode[])) {
      addAttribute.run(project_id, path, value, thread_id);
    }
    const turns = turnsOf.all(project_id, thread_id) as number[];
    const existing = docId.get(project_id, thread_id) as { doc_id: number } | undefined;
    if (existing) dropDoc.run(existing.doc_id);
    if (turns.length === 0) {
      if (existing) dropDocId.run(project_id, thread_id);
    } else if (existing) {
      addDoc.run(existing.doc_id, threadDocument(turns, sides));
    } else {
      const id = addDocNew.run(threadDocument(turns, sides)).lastInsertRowid;
      addDocId.run(project_id, thread_id, id);
    }
  }
}

/**
 * The search words (query/threadsFilter.ts `searchWords`) as an FTS5 query: every word must
 * occur, each as a prefix ("refund" finds "refunds"), words quoted so that no FTS operator can
 * be injected.
 */
export function ftsQuery(words: string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
