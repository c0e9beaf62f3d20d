/**
 * Emoji handling for `wandb.reaction.1` feedback, as the reference does it with the Python
 * `emoji` package: count the emojis in a string (`emoji_count`), name them (`demojize`:
 * `🎱` → `:pool_8_ball:`) and strip skin tones (the reference's `detone_emojis`: demojize,
 * drop the tone words from the name, emojize back).
 *
 * The table is that package's own (every emoji it knows, 5,244 in version 2.16.0), generated
 * into emojiTable.json by scripts/emoji-table.py (docs/reference/shapes.md). The tokenizer below
 * follows the package's: longest match in the table, code point by code point, ZWJ sequences the
 * table does not hold split into the emojis they join, stray variation selectors dropped.
 */
import { readFileSync } from 'node:fs';

interface EmojiTable {
  status: { component: number; fully_qualified: number };
  /** [emoji, ":name:", status], in the package's order. */
  entries: [string, string, number][];
}

const TABLE = JSON.parse(readFileSync(new URL('./emojiTable.json', import.meta.url), 'utf8')) as EmojiTable;
const COMPONENT = TABLE.status.component;

const ZWJ = '\u200d';
const VARIATION_SELECTORS = new Set(['\ufe0e', '\ufe0f']);

interface Trie {
  next: Map<string, Trie>;
  /** The entry's name and status when the path so far is an emoji. */
  data?: { name: string; status: number };
}

const DATA = new Map<string, { name: string; status: number }>();
/** Name → the first emoji carrying it that is fully qualified or a component (what emojize picks). */
const BY_NAME = new Map<string, string>();
const TREE: Trie = { next: new Map() };
for (const [emoji, name, status] of TABLE.entries) {
  DATA.set(emoji, { name, status });
  if (status <= TABLE.status.fully_qualified && !BY_NAME.has(name)) BY_NAME.set(name, emoji);
  let node = TREE;
  for (const cp of emoji) {
    let child = node.next.get(cp);
    if (!child) node.next.set(cp, (child = { next: new Map() }));
    node = child;
  }
  node.data = { name, status };
}

/** A character of text, or an emoji of the table (`name` set). */
interface Token {
  chars: string;
  name?: string;
}

const cpLength = (s: string) => [...s].length;

/**
 * The text as characters and emojis. A ZWJ that joins emojis into a sequence the table does not
 * hold is skipped, or kept as a character with `keepZwj`.
 */
function tokenize(text: string, keepZwj: boolean): Token[] {
  const cps = [...text];
  const out: Token[] = [];
  let pending: Token[] = [];
  const ignore = new Set<number>();
  let i = 0;
  while (i < cps.length) {
    const ch = cps[i]!;
    let consumed = false;
    if (ignore.has(i)) {
      i += 1;
      if (ch === ZWJ && keepZwj) pending.push({ chars: ch });
      continue;
    }
    const root = TREE.next.get(ch);
    if (root) {
      let j = i + 1;
      let node = root;
      while (j < cps.length && node.next.has(cps[j]!) && !ignore.has(j)) node = node.next.get(cps[j++]!)!;
      if (node.data) {
        pending.push({ chars: cps.slice(i, j).join(''), name: node.data.name });
        i = j - 1;
        consumed = true;
      }
    } else if (ch === ZWJ && pending.length > 0 && DATA.has(pending.at(-1)!.chars) && i > 0 && TREE.next.has(cps[i - 1]!)) {
      // The ZWJ does not continue a known sequence: skip it and read the emoji before it again.
      ignore.add(i);
      if (DATA.get(pending.at(-1)!.chars)!.status === COMPONENT) {
        i -= pending.slice(-2).reduce((n, t) => n + cpLength(t.chars), 0);
        if (cps[i] === ZWJ) {
          i += 1;
          pending.pop();
        } else {
          pending.splice(-2);
        }
      } else {
        i -= cpLength(pending.pop()!.chars);
      }
      continue;
    } else if (pending.length > 0) {
      out.push(...pending);
      pending = [];
    }
    if (!consumed && !VARIATION_SELECTORS.has(ch)) pending.push({ chars: ch });
    i += 1;
  }
  out.push(...pending);
  return out;
}

/** How many emojis the text holds (a sequence the table knows counts once), as `emoji_count`. */
export function countEmojis(text: string): number {
  return tokenize(text, false).filter((t) => t.name !== undefined).length;
}

/** The text with every emoji replaced by its `:name:`, as `emoji.demojize`. */
export function demojize(text: string): string {
  return tokenize(text, true)
    .map((t) => t.name ?? t.chars)
    .join('');
}

/** Characters `emoji.emojize` reads inside `:name:` (Python's `\w` plus its extra list). */
// The combining marks stand alone in the class on purpose, as in the package's pattern.
const NAME_PATTERN =
  // eslint-disable-next-line no-misleading-character-class
  /:[\p{L}\p{N}_\-&.’”“()!#*+,/«»\u0300\u0301\u0302\u0303\u0306\u0308\u030a\u0327\u064b\u064e\u064f\u0650\u0653\u0654\u3099\u30fb\u309a\u0655]+:/gu;

/** The text with every `:name:` the table knows replaced by its emoji, as `emoji.emojize`. */
function emojize(text: string): string {
  return text.replace(NAME_PATTERN, (m) => BY_NAME.get(`:${m.slice(1, -1).normalize('NFKC')}:`) ?? m);
}

const TONE_WORDS = /_(light|medium-light|medium|medium-dark|dark)_skin_tone/g;

/**
 * `analyze(text, non_emoji=True)`: characters, and emojis where emojis joined by a ZWJ into a
 * sequence the table does not hold come as one token.
 */
function analyze(text: string): { chars: string; emoji: boolean }[] {
  const out: { chars: string; emoji: boolean }[] = [];
  let acc: { chars: string; emoji: boolean }[] = [];
  let previousIsEmoji = false;
  let previousIsZwj = false;
  for (const token of tokenize(text, true)) {
    const prePreviousIsEmoji = previousIsEmoji;
    if (previousIsEmoji && token.name === undefined && token.chars === ZWJ) {
      previousIsZwj = true;
    } else if (token.name !== undefined) {
      if (prePreviousIsEmoji && previousIsZwj) acc.at(-1)!.chars += ZWJ + token.chars;
      else acc.push({ chars: token.chars, emoji: true });
      previousIsEmoji = true;
      previousIsZwj = false;
    } else {
      previousIsEmoji = false;
      previousIsZwj = false;
      out.push(...acc, { chars: token.chars, emoji: false });
      acc = [];
    }
  }
  out.push(...acc);
  return out;
}

/** The text with skin tones removed from its emojis, as the reference's `detone_emojis`. */
export function detone(text: string): string {
  return analyze(text)
    .map((t) => (t.emoji ? emojize(demojize(t.chars).replace(TONE_WORDS, '')) : t.chars))
    .join('');
}
