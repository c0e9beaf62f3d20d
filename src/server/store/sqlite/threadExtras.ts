/**
 * What Weft keeps per thread beside `thread_stats`: the thread's full-text document (the
 * string values of its turns' inputs and outputs, in the `thread_search` FTS5 table), its
 * tokens per model (`thread_usage`, which prices a thread without reading its turns), and its
 * turns' facts (`thread_turn_facts`, from which date-filtered statistics are computed).
 *
 * Contract: `refreshThreadExtras` runs inside the write transaction that refreshes
 * `thread_stats`, for the same stale threads, so search and cost never lag the statistics.
 * A thread without live turns loses both.
 */
import type { SqliteDatabase } from './SqliteDatabase.js';
import { completionTokensSql, promptTokensSql, USAGE_ENTRY_WHERE, usageEntriesSql } from './usageSql.js';

const LIVE_TURN = 'c.project_id = ? AND c.thread_id = ? AND c.turn_id = c.id AND c.started_at IS NOT NULL AND c.deleted_at IS NULL';

/** Characters of each turn's inputs and of its output that are indexed (long blobs are cut). */
const TEXT_PER_SIDE = 8000;

const stringsOf = (column: string) =>
  `substr(coalesce((SELECT group_concat(j.value, ' ') FROM json_tree(${column}) j WHERE j.type = 'text'), ''), 1, ${TEXT_PER_SIDE})`;

const DOCUMENT_SQL = `SELECT group_concat(${stringsOf('c.inputs')} || ' ' || ${stringsOf('c.output')}, ' ') AS body, count(*) AS turns
  FROM calls c WHERE ${LIVE_TURN}`;

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
  const document = db.prepare(DOCUMENT_SQL);
  const docId = db.prepare('SELECT doc_id FROM thread_search_docs WHERE project_id = ? AND thread_id = ?');
  const dropDoc = db.prepare('DELETE FROM thread_search WHERE rowid = ?');
  const dropDocId = db.prepare('DELETE FROM thread_search_docs WHERE project_id = ? AND thread_id = ?');
  const addDoc = db.prepare('INSERT INTO thread_search (rowid, body) VALUES (?, ?)');
  const addDocNew = db.prepare('INSERT INTO thread_search (body) VALUES (?)');
  const addDocId = db.prepare('INSERT INTO thread_search_docs (project_id, thread_id, doc_id) VALUES (?, ?, ?)');
  const dropUsage = db.prepare('DELETE FROM thread_usage WHERE project_id = ? AND thread_id = ?');
  const addUsage = db.prepare(USAGE_SQL);
  for (const { project_id, thread_id } of threads) {
    const key = `${project_id}\u0000${thread_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    dropUsage.run(project_id, thread_id);
    addUsage.run(project_id, thread_id);
    dropFacts.run(project_id, thread_id);
    addFacts.run(project_id, project_id, thread_id);
    const doc = document.get(project_id, thread_id) as { body: string | null; turns: number };
    const existing = docId.get(project_id, thread_id) as { doc_id: number } | undefined;
    if (existing) dropDoc.run(existing.doc_id);
    if (doc.turns === 0) {
      if (existing) dropDocId.run(project_id, thread_id);
    } else if (existing) {
      addDoc.run(existing.doc_id, doc.body ?? '');
    } else {
      const id = addDocNew.run(doc.body ?? '').lastInsertRowid;
      addDocId.run(project_id, thread_id, id);
    }
  }
}

/**
 * A typed search as an FTS5 query: every word must occur, each as a prefix ("refund" finds
 * "refunds"), words quoted so that no FTS operator can be injected. Words without a letter or
 * digit are dropped (the tokenizer would drop them too); null when none is left.
 */
export function ftsQuery(text: string): string | null {
  const words = text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
