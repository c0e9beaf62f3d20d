/**
 * Repeated call content stored once (docs/history-storage.md): a call's JSON text with its long
 * pieces replaced by markers, and back. Pure: where the pieces live is the caller's (`BlobSink`,
 * `BlobSource`).
 *
 * Contract: `inflate(deflate(text))` is `text` itself, byte for byte. JSON.stringify is
 * compositional (no whitespace, keys in order), so putting each piece's own text back in place of
 * its marker rebuilds the original; a text JSON.stringify would not write the same way, or one
 * that already holds the marker key, is not deflated at all.
 */
import { createHash } from 'node:crypto';

/** The key of a marker object `{"__weft_ref":"<digest>"}`; a text holding it is stored as it is. */
export const MARKER_KEY = '__weft_ref';

/** What is long enough to store apart, in characters of JSON text. */
export interface Thresholds {
  /** A call's inputs or output shorter than this is stored as it is: not worth a parse. */
  text: number;
  /** A string or array at least this long is stored apart. */
  piece: number;
  /**
   * A shorter string at least this long is stored apart in the output of a call whose inputs
   * carry a history stored once, and in inputs where it is stored already: an LLM's reply, which
   * the next turn's history re-sends (docs/history-storage.md "Replies").
   */
  repeated: number;
  /** Such a call's output shorter than `text` is walked from this length on, for its replies. */
  replies: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { text: 1024, piece: 1024, repeated: 256, replies: 512 };

/** Every string and array apart, however short: what tests use so that every read goes through blobs. */
export const EVERY_PIECE: Thresholds = { text: 0, piece: 0, repeated: 0, replies: 0 };

/**
 * Which side of a call a text is. An output's replies are stored apart when `historyInInputs`
 * (asked at most once, and only when the output holds such a string) says the call's inputs
 * were deflated: an agent's turn, a candidate of every search already (docs/history-storage.md
 * "Search"), so taking its reply out costs searches nothing.
 */
export type Side = 'inputs' | { output: { historyInInputs: () => boolean } };

const MARKER_RE = /\{"__weft_ref":"([as][A-Za-z0-9_-]{43})"\}/g;

/** Base64 media: an optional data: URI head and base64 text in canonical form (docs/history-storage.md "Media"). */
const MEDIA_RE = /^(data:[\w.+/-]+(?:;[\w.+/=-]+)*;base64,)?([A-Za-z0-9+/]+={0,2})$/;

export interface NewBlob {
  digest: string;
  /** For an array node, the digest of the prefix stored before it. */
  parent: string | null;
  /** Items of the whole array a node stands for; characters of a string. */
  length: number;
  /** A node's new items as a JSON array; a string's JSON text; media's head (before the base64). */
  body: string;
  /** Media's decoded bytes. */
  bytes: Buffer | null;
  /** The whole original text the blob stands for (what inflating its marker gives). */
  text: string;
}

export interface BlobSink {
  /** How many items the longest stored prefix has, given the digests of the prefixes of 1, 2, ... items. */
  longestStored(prefixDigests: string[]): number;
  /** Stores a blob (a second put of the same digest is ignored). */
  put(blob: NewBlob): void;
  /** Whether a blob of this digest is stored already. */
  stored(digest: string): boolean;
}

export interface StoredBlob {
  parent: string | null;
  body: string;
  bytes: Buffer | null;
}

const marker = (digest: string) => `{"${MARKER_KEY}":"${digest}"}`;

/**
 * The text with its long pieces stored through `sink` and replaced by markers, or null when it
 * is stored as it is (short, not in JSON.stringify's form, holding the marker key, or nothing to take out).
 */
export function deflate(text: string, sink: BlobSink, min: Thresholds = DEFAULT_THRESHOLDS, side: Side = 'inputs'): string | null {
  if (text.length < Math.min(min.text, min.replies) || text.includes(MARKER_KEY)) return null;
  const walk = new Walk(sink, min, side);
  // Below `text`, only an agent turn's output is worth a parse: for its reply.
  if (text.length < min.text && !walk.repliesApart()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (JSON.stringify(value) !== text) return null;
  const out = walk.walk(value, text);
  return out === text ? null : out;
}

class Walk {
  constructor(
    readonly sink: BlobSink,
    readonly min: Thresholds,
    readonly side: Side,
  ) {}

  /** `value`'s text with its pieces taken out; `own` is JSON.stringify(value). */
  walk(value: unknown, own: string): string {
    if (own.length < Math.min(this.min.piece, this.min.repeated)) return own;
    if (typeof value === 'string') {
      if (own.length >= this.min.piece) return marker(putString(value, own, this.sink, this.min));
      return this.putRepeated(value, own);
    }
    if (Array.isArray(value)) {
      const items = value.map((v) => JSON.stringify(v) as string);
      if (items.length >= 2 && own.length >= this.min.piece) return marker(this.putArray(value, items));
      return `[${items.map((t, i) => this.walk(value[i], t)).join(',')}]`;
    }
    if (value !== null && typeof value === 'object') {
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value)) parts.push(`${JSON.stringify(k)}:${this.walk(v, JSON.stringify(v))}`);
      return `{${parts.join(',')}}`;
    }
    return own;
  }

  /**
   * A string shorter than a piece: an agent turn's output's is stored apart (the next turn's
   * history is likely to re-send it), an input's only when stored already, so a new user message
   * stays in its node.
   */
  putRepeated(value: string, own: string): string {
    const digest = `s${sha(own)}`;
    if (this.repliesApart()) this.sink.put({ digest, parent: null, length: value.length, body: own, bytes: null, text: own });
    else if (!this.sink.stored(digest)) return own;
    return marker(digest);
  }

  #replies: boolean | undefined;
  /** Whether this is the output of an agent's turn, whose replies are stored apart. */
  repliesApart(): boolean {
    if (this.side === 'inputs') return false;
    return (this.#replies ??= this.side.output.historyInInputs());
  }

  /**
   * A chain node: the digests of every prefix (hashed incrementally), the longest one stored
   * already, and a node holding only the items after it (docs/history-storage.md "Chains").
   */
  putArray(value: unknown[], items: string[]): string {
    const hash = createHash('sha256').update('[');
    const digests = items.map((t, i) => {
      hash.update(i ? `,${t}` : t);
      return `a${hash.copy().digest('base64url')}`;
    });
    const digest = digests.at(-1)!;
    const known = this.sink.longestStored(digests);
    if (known >= items.length) return digest;
    const tail: string[] = [];
    for (let i = known; i < items.length; i++) tail.push(this.walk(value[i], items[i]!));
    const body = `[${tail.join(',')}]`;
    this.sink.put({
      digest,
      parent: known ? digests[known - 1]! : null,
      length: items.length,
      body,
      bytes: null,
      text: `[${items.join(',')}]`,
    });
    return digest;
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('base64url');

function putString(value: string, own: string, sink: BlobSink, min: Thresholds): string {
  const digest = `s${sha(own)}`;
  const media = MEDIA_RE.exec(value);
  const head = media?.[1] ?? '';
  const base64 = media?.[2];
  if (base64 && base64.length >= Math.max(min.piece, 16) && base64.length % 4 === 0) {
    const bytes = Buffer.from(base64, 'base64');
    // Only a canonical encoding comes back the same from the bytes.
    if (bytes.toString('base64') === base64) {
      sink.put({ digest, parent: null, length: value.length, body: head, bytes, text: own });
      return digest;
    }
  }
  sink.put({ digest, parent: null, length: value.length, body: own, bytes: null, text: own });
  return digest;
}

/**
 * Puts stored pieces back: resolves digests through `load`, remembering whole texts in an LRU
 * bounded in characters (a chain's next turn reuses its parent's text).
 */
export class Inflater {
  readonly #load: (scope: string, digest: string) => StoredBlob | undefined;
  readonly #cache = new Map<string, string>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(load: (scope: string, digest: string) => StoredBlob | undefined, maxChars = 32 * 1024 * 1024) {
    this.#load = load;
    this.#maxChars = maxChars;
  }

  /** The original text of a deflated one, whose blobs are in `scope` (a project). */
  inflate(scope: string, text: string): string {
    return text.replace(MARKER_RE, (_, digest: string) => this.#text(scope, digest));
  }

  /** Forgets everything (blobs were deleted). */
  clear(): void {
    this.#cache.clear();
    this.#chars = 0;
  }

  /** Remembers a blob's whole text (written just now, perhaps not committed yet). */
  remember(scope: string, digest: string, text: string): void {
    const key = `${scope}\u0000${digest}`;
    if (this.#cache.has(key) || text.length > this.#maxChars / 8) return;
    this.#cache.set(key, text);
    this.#chars += text.length;
    for (const [k, v] of this.#cache) {
      if (this.#chars <= this.#maxChars) break;
      this.#cache.delete(k);
      this.#chars -= v.length;
    }
  }

  #text(scope: string, digest: string): string {
    const key = `${scope}\u0000${digest}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return hit;
    }
    const blob = this.#load(scope, digest);
    if (!blob) throw new Error(`History blob ${digest} of ${scope} is missing (docs/history-storage.md)`);
    let text: string;
    if (digest[0] === 's') text = blob.bytes ? `"${blob.body}${blob.bytes.toString('base64')}"` : blob.body;
    else {
      const own = this.inflate(scope, blob.body);
      const before = blob.parent ? this.#text(scope, blob.parent) : '[]';
      text = before === '[]' ? own : `${before.slice(0, -1)},${own.slice(1)}`;
    }
    this.remember(scope, digest, text);
    return text;
  }
}

/** Characters as SQLite's length() counts them (code points), of a JavaScript string. */
export function sqlLength(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) pairs++;
  }
  return text.length - pairs;
}
