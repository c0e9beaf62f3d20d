/**
 * The calls' substring index on SQLite (docs/search.md): the FTS5 table `call_search` with the
 * `trigram` tokenizer, contentless, two documents per call keyed by the call row's rowid: its
 * start part (inputs and attributes, rowid × 2) and its end part (output and exception, rowid
 * × 2 + 1), each written when its part is, so a part never re-reads the other.
 *
 * The index narrows, the rule decides: a search is `MATCH` on the trigram index (a superset of
 * the matches: FTS5 folds case at least as much as the rule) and then the rule of
 * query/callsSearch.ts as the SQL function `weft_search_match`. A part longer than
 * `INDEXED_CHARS` is indexed up to there and marked with `PARTIAL_MARK`, which every search
 * also matches, so a long call is always a candidate and the rule reads it whole.
 */
import type Database from 'better-sqlite3';
import { textsHold, textsHoldWord, type CallsSearch } from '../query/index.js';
import { raw, sql, type SqlFragment } from './sql.js';

/** Characters of a part's text that are indexed; a longer part is a candidate of every search. */
export const INDEXED_CHARS = 65_536;

/** Three control characters: never in JSON text nor in a search, they make one trigram of their own. */
export const PARTIAL_MARK = '\u0001\u0001\u0001';

/** A part's document: its texts, joined by a line break (never inside JSON text), cut and marked when long. */
export function partDocument(a: string | null | undefined, b: string | null | undefined): string {
  const text = `${a ?? ''}\n${b ?? ''}`;
  return text.length > INDEXED_CHARS ? text.slice(0, INDEXED_CHARS) + PARTIAL_MARK : text;
}

/** The same document in SQL, for the backfill (substr counts characters: any cut part is marked). */
export const partDocumentSql = (a: string, b: string): string => {
  const text = `coalesce(${a}, '') || char(10) || coalesce(${b}, '')`;
  return `CASE WHEN length(${text}) > ${INDEXED_CHARS} THEN substr(${text}, 1, ${INDEXED_CHARS}) || char(1, 1, 1) ELSE ${text} END`;
};

export const WRITE_DOC_SQL = 'INSERT OR REPLACE INTO call_search (rowid, body) VALUES (?, ?)';

/** The FTS5 query of a search: any needle as a phrase of trigrams, or a cut document. */
function matchQuery(search: CallsSearch): string {
  return [...search.needles, PARTIAL_MARK].map((n) => `"${n.replace(/"/g, '""')}"`).join(' OR ');
}

const COLUMNS = 'calls.inputs, calls.output, calls.attributes, calls.exception';

/** The search filter over `calls`: candidates from the index, decided by the rule. */
export function searchClause(search: CallsSearch): SqlFragment {
  const [first, second = null] = search.needles;
  return sql`(calls.rowid IN (SELECT rowid >> 1 FROM call_search WHERE call_search MATCH ${bound(matchQuery(search))})
    AND weft_search_match(${raw(COLUMNS)}, ${bound(first!)}, ${bound(second)}))`;
}

/** 1 for a call holding a needle as a whole word, else 0 (a sort key). */
export function searchWordSql(search: CallsSearch): SqlFragment {
  const [first, second = null] = search.needles;
  return sql`weft_search_word(${raw(COLUMNS)}, ${bound(first!)}, ${bound(second)})`;
}

const bound = (value: string | null): SqlFragment => ({ sql: '?', params: [value] });

/** Registers the rule's SQL functions on a connection (every connection that may run a calls query). */
export function registerSearchFunctions(db: Database.Database): void {
  const needles = (a: unknown, b: unknown) => (typeof b === 'string' ? [String(a), b] : [String(a)]);
  const texts = (args: unknown[]) => args.slice(0, 4).map((t) => (typeof t === 'string' ? t : null));
  db.function('weft_search_match', { deterministic: true, varargs: true }, (...args: unknown[]) =>
    textsHold(texts(args), needles(args[4], args[5])) ? 1 : 0,
  );
  db.function('weft_search_word', { deterministic: true, varargs: true }, (...args: unknown[]) =>
    textsHoldWord(texts(args), needles(args[4], args[5])) ? 1 : 0,
  );
}
