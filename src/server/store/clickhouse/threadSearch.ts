/**
 * Thread content search on ClickHouse with the matching rule of SQLite's FTS5 index
 * (query/threadsFilter.ts; sqlite/threadExtras.ts, tokenizer `unicode61 remove_diacritics 2`),
 * matched at read time over each turn's text, which is computed once at insert: thread_turns'
 * `inputs_text` and `output_text` (migrations/v11ThreadTurnText.ts, whose DEFAULTs print
 * turnSideTextSql), so a search merges that narrow table and parses no JSON. No index is kept in
 * step with writes.
 *
 * A turn's text is what SQLite indexes: the JSON string values (not keys, not numbers) of its
 * inputs, then of its output, each side cut to 8000 characters. Each search word becomes one
 * RE2 pattern that finds it in that text as FTS5 finds `"word"*`: the word's tokens in a row,
 * the last one as a prefix, each starting at a token boundary. Tokens are runs of letters,
 * digits and private-use characters; case folds (RE2 `(?i)`); a Latin letter with diacritics
 * matches its base letter; the combining diacritics unicode61 drops are removed from the text
 * and the word. Only a word's letters, digits and private-use characters enter the pattern,
 * none of them RE2 syntax, so typed text is never pattern syntax. threadSearch.clickhouse.test.ts
 * checks the rule against SQLite on awkward text.
 *
 * Known differences from FTS5, none in ordinary text: unicode61 has Unicode 6.1's tables, so
 * letters cased or added since (Cherokee, Georgian Mtavruli, Latin Extended-D) fold or split
 * differently here; and a multi-token word (`e-mail`) is found within one turn's text, where
 * SQLite's one document per thread could also join the end of one turn to the next.
 */
/** The combining marks unicode61 counts as diacritics: token characters that are then dropped (checked against SQLite). */
const DIACRITIC_RANGES: readonly [number, number][] = [
  [0x300, 0x304],
  [0x306, 0x30c],
  [0x30f, 0x30f],
  [0x311, 0x311],
  [0x31b, 0x31b],
  [0x323, 0x328],
  [0x32d, 0x32e],
  [0x330, 0x331],
];

const isDiacritic = (ch: string) => {
  const cp = ch.codePointAt(0)!;
  return DIACRITIC_RANGES.some(([a, b]) => cp >= a && cp <= b);
};

const escape = (ch: string) => `\\x{${ch.codePointAt(0)!.toString(16)}}`;

const DIACRITICS = `[${DIACRITIC_RANGES.map(([a, b]) => (a === b ? escape(String.fromCodePoint(a)) : `${escape(String.fromCodePoint(a))}-${escape(String.fromCodePoint(b))}`)).join('')}]`;

/** A character between tokens (the text's dropped diacritics are already gone). */
const SEPARATOR = '[^\\p{L}\\p{N}\\p{Co}]';

/** Latin letters unicode61 leaves as they are, although they decompose into a base letter and diacritics. */
const KEPT = new Set('ǠǡǢǣǮǯǼǽǾǿ');

/** A Latin letter with diacritics folded to its base letter (remove_diacritics 2); any other character as it is. */
function baseLetter(ch: string): string {
  if (KEPT.has(ch)) return ch;
  const [first, ...marks] = [...ch.normalize('NFD')];
  return first && marks.length > 0 && /\p{Script=Latin}/u.test(first) && marks.every(isDiacritic) ? first : ch;
}

/** A base letter's lower case, which keys its variants (unicode61 folds ſ to s). */
const variantKey = (ch: string) => {
  const lower = ch.toLowerCase();
  return lower === 'ſ' ? 's' : [...lower].length === 1 ? lower : ch;
};

/** The letters with diacritics of each base letter, by variantKey (the blocks that hold them all). */
const VARIANTS: ReadonlyMap<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [from, to] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
    [0x2100, 0x214f],
  ] as const) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCodePoint(cp);
      const base = baseLetter(ch);
      if (base !== ch) out.set(variantKey(base), [...(out.get(variantKey(base)) ?? []), ch]);
    }
  }
  return out;
})();

/**
 * One character of a search word: itself, or any variant of its base letter. RE2's `(?i)` adds
 * the other case, so a variant whose lower case is listed is left out. Only letters, digits and
 * private-use characters get here, none of them RE2 syntax, so they stand as themselves: the
 * pattern travels in the request URL, and a 500-character word stays within ClickHouse's
 * 128 KiB per parameter (escapes would triple it).
 */
function charPattern(ch: string): string {
  const base = baseLetter(ch);
  const all = new Set([base, ...(VARIANTS.get(variantKey(base)) ?? [])]);
  const members = [...all].filter((v) => v.toLowerCase() === v || !all.has(v.toLowerCase()));
  return members.length === 1 ? members[0]! : `[${members.join('')}]`;
}

/**
 * The RE2 pattern finding one search word as FTS5's `"word"*` does, or null when the word has
 * no token (query/threadsFilter.ts `searchWords` keeps only words with a letter or digit).
 */
export function searchWordPattern(word: string): string | null {
  const tokens = [...word]
    .filter((ch) => !isDiacritic(ch))
    .join('')
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter(Boolean);
  if (tokens.length === 0) return null;
  const body = tokens.map((t) => [...t].map(charPattern).join('')).join(`${SEPARATOR}+`);
  return `(?i)(?:^|${SEPARATOR})${body}`;
}

/** Characters of a turn's inputs and of its output that are searched (sqlite/threadExtras.ts TEXT_PER_SIDE). */
const TEXT_PER_SIDE = 8000;

/**
 * A JSON string literal and, when it is an object key, the colon after it: valid JSON has no
 * quote outside strings, so scanning the text finds every string in order.
 */
const JSON_STRING = '"((?:[^"\\\\]|\\\\.)*)"(\\s*:)?';

/** A text as a ClickHouse string literal: DDL (a column's DEFAULT) cannot bind parameters. */
const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The searchable text of one side of a turn, over a JSON text column (`inputs` or `output`):
 * its string values, space-separated, escapes decoded, cut as SQLite cuts them, without the
 * diacritics unicode61 drops (token characters that vanish, so removing them first tokenizes
 * the same; removed per side, as no diacritic spans the joining space). It is the DEFAULT of
 * thread_turns' `inputs_text` and `output_text` (migrations/v11ThreadTurnText.ts), computed once
 * at insert: a change of this rule needs a new migration that recomputes them.
 */
export function turnSideTextSql(column: string): string {
  const strings = `substringUTF8(arrayStringConcat(arrayMap(g -> if(position(g[1], '\\\\') > 0, JSONExtractString(concat('"', g[1], '"')), g[1]),
    arrayFilter(g -> g[2] = '', extractAllGroups(ifNull(${column}, ''), ${literal(JSON_STRING)}))), ' '), 1, ${TEXT_PER_SIDE})`;
  return `replaceRegexpAll(${strings}, ${literal(DIACRITICS)}, '')`;
}

/** A turn's searchable text over a thread_turns row: its inputs' text, then its output's. */
export const TURN_TEXT_SQL = "concat(ifNull(inputs_text, ''), ' ', ifNull(output_text, ''))";
