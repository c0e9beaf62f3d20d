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
import { wholeWordPattern, WORD_CHAR, type CallsSearch } from '../query/index.js';
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
 * progress, past which every queued call is a candidate too; and at most how many indexed calls
 * can match (each needle's rarest trigram's calls, summed; Infinity when a needle has no lists).
 */
export interface SearchGrams {
  byNeedle: ReadonlyMap<string, readonly string[] | null>;
  indexedTo: number;
  candidates: number;
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
 * the rarest few; and reads the indexer's progress before the statement, so every part at or before
 * it has its rows in call_grams by the time the statement reads them (the indexer writes rows, then
 * progress).
 */
export async function chooseSearchGrams(
  db: ClickHouseDatabase,
  projectId: string,
  searches: readonly CallsSearch[],
  { maxPostings = MAX_POSTINGS }: { maxPostings?: number } = {},
): Promise<SearchGrams> {
  const byNeedle = new Map<string, string[]>();
  for (const s of searches) for (const n of s.needles) byNeedle.set(n, needleGrams(n));
  const all = [...new Set([...byNeedle.values()].flat())];
  const chosen = new Map<string, string[] | null>();
  const [progress, rows] = await Promise.all([
    db.get<{ w: string }>(INDEXED_TO_SQL),
    all.length === 0
      ? []
      : db.all<{ gram: string; n: string }>(
          'SELECT gram, count() AS n FROM call_grams WHERE project_id = {p:String} AND gram IN {grams:Array(String)} GROUP BY gram',
          { p: projectId, grams: all },
        ),
  ]);
  const indexedTo = num(progress?.w ?? 0);
  if (all.length === 0) return { byNeedle: chosen, indexedTo, candidates: Infinity };
  const counts = new Map(rows.map((r) => [r.gram, Number(r.n)]));
  let candidates = 0;
  for (const [needle, grams] of byNeedle) {
    const ranked = grams.map((g) => ({ g, n: counts.get(g) ?? 0 })).sort((a, b) => a.n - b.n);
    candidates += ranked[0]?.n ?? Infinity;
    if (ranked.length === 0 || ranked[0]!.n > maxPostings) chosen.set(needle, null);
    else
      chosen.set(
        needle,
        ranked.slice(0, GRAMS_PER_NEEDLE).map((r) => r.g),
      );
  }
  return { byNeedle: chosen, indexedTo, candidates };
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

let bmpWordBits: string | undefined;

/** The placeholders of what wordCharSql reads: the bitmap and the RE2 class past the BMP. */
interface WordCharParams {
  bits: string;
  pattern: string;
}

/** Binds wordCharSql's parameters, once per statement. */
export const wordCharParams = (bind: Bind): WordCharParams => ({
  bits: bind(wordBitsHex(), 'String'),
  pattern: bind(`^[${WORD_CHAR}]$`, 'String'),
});

/**
 * The whole-word class (query/callsSearch.ts WORD_CHAR) over the Basic Multilingual Plane as a
 * bitmap in hex, bit `cp` set for a word character: 8 KB, made once from JavaScript's own Unicode
 * tables, so ClickHouse ranks as SQLite does.
 */
function wordBitsHex(): string {
  if (bmpWordBits) return bmpWordBits;
  const word = new RegExp(`^[${WORD_CHAR}]$`, 'u');
  const bits = Buffer.alloc(0x10000 / 8);
  for (let cp = 0; cp < 0x10000; cp++) {
    if ((cp < 0xd800 || cp > 0xdfff) && word.test(String.fromCodePoint(cp))) bits[cp >> 3]! |= 1 << (cp & 7);
  }
  return (bmpWordBits = bits.toString('hex'));
}

/**
 * Whether the one-character string `c` (an identifier) is a word character, '' being none: ASCII
 * compared, the rest of the BMP looked up in the bitmap by code point (decoded from its UTF-8
 * bytes), other planes by RE2, whose tables may lag JavaScript's. No pattern runs for the BMP:
 * RE2 on Unicode classes cost a rare word's search ~120 ms (docs/search.md "Ranking on ClickHouse").
 */
export function wordCharSql(c: string, { bits, pattern }: WordCharParams): string {
  const v = `reinterpretAsUInt32(reverse(${c}))`;
  const byte = (shift: number, mask: number) => `bitAnd(bitShiftRight(${v}, ${shift}), ${mask})`;
  const cp = `if(length(${c}) = 2, ${byte(8, 31)} * 64 + ${byte(0, 63)}, ${byte(16, 15)} * 4096 + ${byte(8, 63)} * 64 + ${byte(0, 63)})`;
  return `multiIf(length(${c}) = 0, 0,
    length(${c}) = 1, ${c} BETWEEN 'a' AND 'z' OR ${c} BETWEEN '0' AND '9' OR ${c} = '_' OR ${c} BETWEEN 'A' AND 'Z',
    length(${c}) < 4, bitTest(reinterpretAsUInt8(substring(unhex(${bits}), intDiv(${cp}, 8) + 1, 1)), ${cp} % 8),
    match(${c}, ${pattern}))`;
}

/**
 * 1 for a call holding a needle as a whole word, else 0 (a sort key): the text split at each
 * occurrence, and some occurrence with no word character on either side. An empty piece between
 * two occurrences means they touch (the neighbour is the needle's own last or first character);
 * occurrences that overlap (a needle whose end begins it again) are not split apart, so such
 * needles are tried by the whole-word pattern instead.
 */
export function searchWordSql(search: CallsSearch, bind: Bind): string {
  let word: WordCharParams | undefined;
  const parts = search.needles.map((n) => {
    const chars = [...n];
    if (overlapsItself(chars)) return `match(${VERIFY_TEXT_SQL}, ${bind(wholeWordPattern(n), 'String')})`;
    word ??= wordCharParams(bind);
    const pieces = `splitByString(${bind(n, 'String')}, ${VERIFY_TEXT_SQL})`;
    const last = bind(chars.at(-1)!, 'String');
    const first = bind(chars[0]!, 'String');
    const befores = `arrayPopBack(arrayMap((s, i) -> if(s = '', if(i > 1, ${last}, ''), substringUTF8(s, -1)), ${pieces}, arrayEnumerate(${pieces})))`;
    const afters = `arrayPopFront(arrayMap((s, i) -> if(s = '', if(i < length(${pieces}), ${first}, ''), substringUTF8(s, 1, 1)), ${pieces}, arrayEnumerate(${pieces})))`;
    const isWord = (list: string) => `arrayMap(c -> ${wordCharSql('c', word!)}, ${list})`;
    return `arrayExists((b, a) -> NOT b AND NOT a, ${isWord(befores)}, ${isWord(afters)})`;
  });
  return parts.length === 1 ? parts[0]! : `or(${parts.join(', ')})`;
}

/** Whether a needle's end can begin another occurrence of it (a proper prefix equal to a suffix). */
function overlapsItself(chars: readonly string[]): boolean {
  for (let k = 1; k < chars.length; k++) {
    if (chars.slice(0, k).join('') === chars.slice(-k).join('')) return true;
  }
  return false;
}
