/**
 * The calls' substring search on ClickHouse (docs/search.md): one lowercased text per call row,
 * its inputs, attributes, output and exception joined by line breaks (never inside JSON text nor
 * in a search), indexed by the `i_search` n-gram bloom filter (migrations/v21CallSearch.ts). A
 * search is a LIKE on that same expression: the index skips the granules without the needle's
 * trigrams, and the LIKE decides over the merged row (`calls FINAL`).
 */
import { wholeWordPattern, type CallsSearch } from '../query/index.js';

/** The indexed expression; a query must spell it exactly so for the index to apply. */
export const SEARCH_TEXT_SQL =
  "lowerUTF8(concat(ifNull(inputs, ''), '\\n', ifNull(attributes, ''), '\\n', ifNull(output, ''), '\\n', ifNull(exception, '')))";

/** Binds a value and answers its `{name:Type}` placeholder. */
type Bind = (value: string) => string;

/** A LIKE pattern finding `needle` anywhere (`%`, `_` and `\` taken literally). */
const likeAnywhere = (needle: string): string => `%${needle.replace(/[\\%_]/g, '\\$&')}%`;

/** The search filter: some needle occurs in the call's text. */
export function searchClause(search: CallsSearch, bind: Bind): string {
  const parts = search.needles.map((n) => `${SEARCH_TEXT_SQL} LIKE ${bind(likeAnywhere(n))}`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
}

/** 1 for a call holding a needle as a whole word, else 0 (a sort key). */
export function searchWordSql(search: CallsSearch, bind: Bind): string {
  const parts = search.needles.map((n) => `match(${SEARCH_TEXT_SQL}, ${bind(wholeWordPattern(n))})`);
  return parts.length === 1 ? parts[0]! : `or(${parts.join(', ')})`;
}
