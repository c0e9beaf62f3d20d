/**
 * Content search over calls (the `search` filter), backend-neutral: what it matches and how its
 * matches are ranked. Each backend narrows with its substring index and decides with this rule
 * (docs/search.md).
 *
 * - A call matches when the search text, lowercased, is a substring of the lowercased stored text
 *   of its inputs, output or attributes (their JSON text) or its exception. The text is also
 *   tried as it is written inside a JSON string (quotes and backslashes escaped), so a search
 *   for `say "hi"` finds the input that holds it.
 * - It needs at least `MIN_SEARCH_CHARS` characters (code points) after trimming: the substring
 *   indexes are made of trigrams, and a shorter text would be a scan of the project.
 * - Ranking: calls holding it as a whole word (no letter, mark, digit or `_` right before or
 *   after it) come first; the requested order decides within each group.
 */
import { BadRequestError } from '../../errors.js';
import type { CallsSearch, Condition } from './ir.js';

export type { CallsSearch } from './ir.js';

export const MIN_SEARCH_CHARS = 3;

/** Control characters never occur in JSON text (they are escaped there) and would be trigram-index markers. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The plan of a `search` filter; null when blank. Refuses (400) a text too short or with control characters. */
export function planSearch(search: string | null | undefined): CallsSearch | null {
  const text = search?.trim() ?? '';
  if (!text) return null;
  if ([...text].length < MIN_SEARCH_CHARS) {
    throw new BadRequestError(`search needs at least ${MIN_SEARCH_CHARS} characters (it matches substrings through a trigram index)`);
  }
  if (CONTROL.test(text)) throw new BadRequestError('search cannot hold control characters (tabs, line breaks)');
  const lower = text.toLowerCase();
  const escaped = JSON.stringify(lower).slice(1, -1);
  return { text, needles: escaped === lower ? [lower] : [lower, escaped] };
}

/** The substring search of a text when it can be one (long enough, no control characters), else null. */
export function substringSearch(text: string): CallsSearch | null {
  try {
    return planSearch(text);
  } catch {
    return null;
  }
}

/** Characters that make a neighbour part of the same word. */
export const WORD_CHAR = String.raw`\p{L}\p{M}\p{N}_`;

/** A needle quoted for a regular expression (JavaScript's and RE2's syntax agree on these escapes). */
export const regexQuote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The RE2 / JavaScript pattern of a needle as a whole word (apply to lowercased text). */
export const wholeWordPattern = (needle: string): string => `(^|[^${WORD_CHAR}])${regexQuote(needle)}($|[^${WORD_CHAR}])`;

/** Whether any of `texts` holds a needle (lowercased text compared with lowercased needles). */
export function textsHold(texts: (string | null)[], needles: string[]): boolean {
  for (const t of texts) {
    if (!t) continue;
    const lower = t.toLowerCase();
    for (const n of needles) if (lower.includes(n)) return true;
  }
  return false;
}

const wordPatterns = new Map<string, RegExp>();

/** Whether any of `texts` holds a needle as a whole word. */
export function textsHoldWord(texts: (string | null)[], needles: string[]): boolean {
  for (const n of needles) {
    let re = wordPatterns.get(n);
    if (!re) {
      if (wordPatterns.size > 256) wordPatterns.clear();
      wordPatterns.set(n, (re = new RegExp(wholeWordPattern(n), 'u')));
    }
    for (const t of texts) if (t && re.test(t.toLowerCase())) return true;
  }
  return false;
}

/** Characters JSON text writes escaped: a needle holding one may not occur verbatim in the stored text. */
// eslint-disable-next-line no-control-regex
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\u007f]/;

/**
 * The `$contains` tests of a query that the substring index can narrow: those ANDed at the top of
 * the condition (where undecidable and false both drop the call), on a string read from inputs,
 * output or attributes (not through a ref), with a literal of 3 or more characters that JSON
 * text holds verbatim. A call passing such a test holds the literal, lowercased, in the
 * lowercased text the index covers, so the index's candidates are a superset; the test itself
 * still decides (docs/search.md "$contains").
 */
export function indexableContains(expr: Condition | null): CallsSearch[] {
  if (!expr) return [];
  if (expr.k === 'and') return expr.items.flatMap(indexableContains);
  if (expr.k !== 'contains' || expr.input.k !== 'json' || expr.input.as !== 'text' || expr.substr.k !== 'literal') return [];
  const { field } = expr.input;
  const value = expr.substr.value;
  if (field.via || !['inputs', 'output', 'attributes'].includes(field.column) || typeof value !== 'string') return [];
  if ([...value].length < MIN_SEARCH_CHARS || ESCAPED_IN_JSON.test(value)) return [];
  return [{ text: value, needles: [value.toLowerCase()] }];
}
