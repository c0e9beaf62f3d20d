/**
 * The calls' substring search on ClickHouse (docs/search.md): one lowercased text per call row,
 * its inputs, attributes, output and exception joined by line breaks (never inside JSON text nor
 * in a search). Two indexes narrow it, and a LIKE on that same text over the merged row
 * (`calls FINAL`) always decides:
 *
 * - `call_grams` (migrations/v25CallGrams.ts): the posting lists of the text's trigrams, one row
 *   per (project, trigram, call), filled in the background from a queue of written parts
 *   (callSearchIndexer.ts). A search reads how many calls hold each of its trigrams
 *   (`chooseSearchGrams`), and when the rarest ones are rare enough, the calls holding all of
 *   them, and every call still queued, are the candidates.
 * - the `i_search` n-gram bloom filter (migrations/v21CallSearch.ts), which skips the granules
 *   without the text's trigrams: what answers a text too common for the posting lists to help.
 */
import { wholeWordPattern, type CallsSearch } from '../query/index.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

/** The indexed expression; a query must spell it exactly so for the index to apply. */
export const SEARCH_TEXT_SQL =
  "lowerUTF8(concat(ifNull(inputs, ''), '\\n', ifNull(attributes, ''), '\\n', ifNull(output, ''), '\\n', ifNull(exception, '')))";

/**
 * The same text, spelled so that the bloom filter is not consulted: once the posting lists have
 * named the candidates, reading the filters of their granules (under FINAL's exact mode) cost
 * more than the LIKE itself (docs/performance.md "ClickHouse substring search"). lowerUTF8 maps
 * each code point alone, so lowering each column equals lowering their concatenation.
 */
const VERIFY_TEXT_SQL =
  "concat(lowerUTF8(ifNull(inputs, '')), '\\n', lowerUTF8(ifNull(attributes, '')), '\\n', lowerUTF8(ifNull(output, '')), '\\n', lowerUTF8(ifNull(exception, '')))";

/** The call parts that hold searchable text: those the queue and the posting lists take. */
export const QUEUE_ROWS_SQL = 'inputs IS NOT NULL OR attributes IS NOT NULL OR output IS NOT NULL OR exception IS NOT NULL';

/** Characters of a call row's text whose trigrams are indexed; past them the call is marked long. */
export const INDEXED_CHARS = 65_536;

/** The gram that marks a call whose text is longer than INDEXED_CHARS: a candidate of every search. No trigram is empty. */
export const LONG_MARK = '';

/**
 * The `call_grams` rows of the calls rows a SELECT reads (`where`: which ones): the distinct
 * trigrams (code points, as `[...text]` splits them) of each row's text up to INDEXED_CHARS, and
 * LONG_MARK past them. A part without text (a delete, a rename, a retention mark) has none.
 */
export const gramRowsSql = (where: string): string => `SELECT project_id,
    arrayJoin(if(lengthUTF8(${SEARCH_TEXT_SQL} AS text) > ${INDEXED_CHARS},
      arrayPushBack(arrayDistinct(ngrams(substringUTF8(text, 1, ${INDEXED_CHARS}), 3)), '${LONG_MARK}'),
      arrayDistinct(ngrams(text, 3)))) AS gram,
    id
  FROM calls
  WHERE (${QUEUE_ROWS_SQL}) AND ${where}`;

/**
 * Above this many calls holding a search's rarest trigram, the posting lists narrow too little to
 * pay for their set, and the bloom filter (and, newest first, the start-time window) answers.
 */
export const MAX_POSTINGS = 100_000;

/** How many of a needle's rarest trigrams are intersected: past 3 the candidates hardly shrink. */
const GRAMS_PER_NEEDLE = 3;

/** How far the indexer has come: every queued part at or before this position is in call_grams. */
export const INDEXED_TO_SQL = 'SELECT max(indexed_to) AS w FROM call_search_progress';

/**
 * What a statement's searches read of the posting lists: for each needle, the trigrams whose
 * lists find its candidates (all of them held by a candidate), or null when the needle is too
 * common for them (MAX_POSTINGS) and the LIKE is left to the bloom filter; and the indexer's
 * progress, past which every queued call is a candidate too.
 */
export interface SearchGrams {
  byNeedle: ReadonlyMap<string, readonly string[] | null>;
  indexedTo: number;
}

/** A needle's distinct trigrams, by code point as ClickHouse's `ngrams` splits UTF-8. */
export function needleGrams(needle: string): string[] {
  const chars = [...needle];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams];
}

/**
 * Chooses the posting lists of each needle: one read of how many calls of the project hold each
 * trigram (the gram column alone, a few milliseconds even for a trigram every call holds), then
 * the rarest few; and reads the indexer's progress first, so every part at or before it has its
 * rows in call_grams by the time the statement reads them (the indexer writes rows, then progress).
 */
export async function chooseSearchGrams(
  db: ClickHouseDatabase,
  projectId: string,
  searches: readonly CallsSearch[],
  { maxPostings = MAX_POSTINGS }: { maxPostings?: number } = {},
): Promise<SearchGrams> {
  const indexedTo = num((await db.get<{ w: string }>(INDEXED_TO_SQL))?.w ?? 0);
  const byNeedle = new Map<string, string[]>();
  for (const s of searches) for (const n of s.needles) byNeedle.set(n, needleGrams(n));
  const all = [...new Set([...byNeedle.values()].flat())];
  const chosen = new Map<string, string[] | null>();
  if (all.length === 0) return { byNeedle: chosen, indexedTo };
  const rows = await db.all<{ gram: string; n: string }>(
    'SELECT gram, count() AS n FROM call_grams WHERE project_id = {p:String} AND gram IN {grams:Array(String)} GROUP BY gram',
    { p: projectId, grams: all },
  );
  const counts = new Map(rows.map((r) => [r.gram, Number(r.n)]));
  for (const [needle, grams] of byNeedle) {
    const ranked = grams.map((g) => ({ g, n: counts.get(g) ?? 0 })).sort((a, b) => a.n - b.n);
    if (ranked.length === 0 || ranked[0]!.n > maxPostings) chosen.set(needle, null);
    else
      chosen.set(
        needle,
        ranked.slice(0, GRAMS_PER_NEEDLE).map((r) => r.g),
      );
  }
  return { byNeedle: chosen, indexedTo };
}

/** Binds a value of a ClickHouse type and answers its `{name:Type}` placeholder. */
type Bind = (value: unknown, type: string) => string;

/** A LIKE pattern finding `needle` anywhere (`%`, `_` and `\` taken literally). */
const likeAnywhere = (needle: string): string => `%${needle.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The candidates of a needle: the calls holding every chosen trigram, the long calls, and every
 * call of the project still queued past the indexer's progress. A rewritten part leaves its old
 * trigrams behind, and a deleted call its own: a superset, which the LIKE over the merged row
 * decides.
 */
function candidatesSql(grams: readonly string[], indexedTo: number, bind: Bind): string {
  const wanted = bind([...grams, LONG_MARK], 'Array(String)');
  return `(id IN (SELECT id FROM call_grams WHERE project_id = {p:String} AND gram IN ${wanted}
    GROUP BY id HAVING uniqExactIf(gram, gram != '${LONG_MARK}') = ${bind(grams.length, 'UInt32')} OR max(gram = '${LONG_MARK}'))
    OR id IN (SELECT id FROM call_search_queue WHERE queued_at > ${bind(indexedTo, 'Int64')} AND project_id = {p:String}))`;
}

/**
 * The candidates of a search as a condition on `id` alone, for the statement's PREWHERE: read
 * before FINAL merges, it keeps every part of a candidate (they share the id) and drops the other
 * rows before the LIKE reads their text. Null unless every needle has posting lists chosen.
 */
export function searchCandidates(search: CallsSearch, bind: Bind, grams?: SearchGrams): string | null {
  if (!grams) return null;
  const parts: string[] = [];
  for (const n of search.needles) {
    const chosen = grams.byNeedle.get(n);
    if (!chosen) return null;
    parts.push(candidatesSql(chosen, grams.indexedTo, bind));
  }
  return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
}

/**
 * The search filter: some needle occurs in the call's text, among its candidates when `grams`
 * chose posting lists for it (left out when `candidatesInPrewhere`: searchCandidates holds them).
 */
export function searchClause(search: CallsSearch, bind: Bind, grams?: SearchGrams, candidatesInPrewhere = false): string {
  const parts = search.needles.map((n) => {
    const pattern = bind(likeAnywhere(n), 'String');
    const chosen = grams?.byNeedle.get(n);
    if (!grams || !chosen) return `${SEARCH_TEXT_SQL} LIKE ${pattern}`;
    const like = `${VERIFY_TEXT_SQL} LIKE ${pattern}`;
    return candidatesInPrewhere ? like : `(${candidatesSql(chosen, grams.indexedTo, bind)} AND ${like})`;
  });
  return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
}

/** 1 for a call holding a needle as a whole word, else 0 (a sort key). */
export function searchWordSql(search: CallsSearch, bind: Bind): string {
  const parts = search.needles.map((n) => `match(${SEARCH_TEXT_SQL}, ${bind(wholeWordPattern(n), 'String')})`);
  return parts.length === 1 ? parts[0]! : `or(${parts.join(', ')})`;
}
