/**
 * The `history_blobs` table (migration 32) behind historyCodec.ts: a call write stores its
 * repeated content there once, a read puts it back (docs/history-storage.md).
 *
 * Reads go through a connection of their own: a row's markers are resolved while the statement
 * that read it still iterates (better-sqlite3 refuses a second statement on a busy connection),
 * and inside SQL by `weft_inflate`, a function that cannot query its own connection either.
 * Blobs are immutable by digest, so one LRU of whole texts serves every connection of a process.
 */
import Database from 'better-sqlite3';
import {
  DEFAULT_THRESHOLDS,
  deflate,
  EVERY_PIECE,
  Inflater,
  sqlLength,
  type BlobSink,
  type NewBlob,
  type Side,
  type StoredBlob,
} from './historyCodec.js';

/** `WEFT_HISTORY_DEDUP`: off, on, or every string and array however short (for tests). */
export type HistoryDedup = 'off' | 'on' | 'all';

type Db = Database.Database;

const LONGEST_SQL = 'SELECT max(length) AS n FROM history_blobs WHERE project_id = ? AND digest IN (SELECT value FROM json_each(?))';
/**
 * INSERT ... SELECT, not VALUES: with it a full disk fails
 * this statement alone; a single-row INSERT OR IGNORE without one rolled the whole group
 * commit back, and its COMMIT then failed (threads/answerGate.test.ts).
 */
const PUT_SQL = `INSERT INTO history_blobs (project_id, digest, parent, length, body, bytes)
  SELECT ?, ?, ?, ?, ?, ? WHERE 1 ON CONFLICT (project_id, digest) DO NOTHING`;
const STORED_SQL = 'SELECT 1 FROM history_blobs WHERE project_id = ? AND digest = ?';
const INPUTS_ONCE_SQL = 'SELECT 1 FROM calls WHERE project_id = ? AND id = ? AND inputs_chars IS NOT NULL';
const LOAD_SQL = 'SELECT parent, body, bytes FROM history_blobs WHERE project_id = ? AND digest = ?';

/**
 * A call's inputs or output as SQL that reads as the original JSON text: rows without markers
 * (`<column>_chars` NULL) pay nothing.
 */
export const payloadSql = (column: 'inputs' | 'output', table = 'calls'): string =>
  `(CASE WHEN ${table}.${column}_chars IS NULL THEN ${table}.${column} ELSE weft_inflate(${table}.project_id, ${table}.${column}) END)`;

export class HistoryBlobs {
  /** Whether writes take repeated content out (`WEFT_HISTORY_DEDUP`); reads always put it back. */
  readonly enabled: boolean;
  readonly #thresholds;
  readonly #file: string;
  #reader: Db | null = null;
  #load: Database.Statement | null = null;
  readonly #inflater = new Inflater((scope, digest) => this.#loadBlob(scope, digest));
  /**
   * Blobs the open write transaction wrote: the read connection cannot see them before the
   * commit, and the LRU may have let them go. Dropped once the transaction ends (`settled`).
   */
  readonly #pending = new Map<string, StoredBlob>();

  constructor(file: string, mode: HistoryDedup) {
    this.#file = file;
    // A database in memory cannot be opened a second time, for the reads.
    this.enabled = mode !== 'off' && file !== ':memory:';
    this.#thresholds = mode === 'all' ? EVERY_PIECE : DEFAULT_THRESHOLDS;
  }

  /**
   * The text to store for a call's inputs or output, and its original length in characters;
   * null to store it as it is. Runs on the writer, inside the call write's transaction.
   */
  deflate(
    prepare: (sql: string) => Database.Statement,
    projectId: string,
    text: string | null,
    side: Side,
  ): { text: string; chars: number } | null {
    if (!this.enabled || text === null) return null;
    const longest = prepare(LONGEST_SQL);
    const put = prepare(PUT_SQL);
    const stored = prepare(STORED_SQL);
    const sink: BlobSink = {
      longestStored: (digests) => (longest.get(projectId, JSON.stringify(digests)) as { n: number | null }).n ?? 0,
      put: (b: NewBlob) => {
        if (put.run(projectId, b.digest, b.parent, b.length, b.body, b.bytes).changes) {
          this.#pending.set(`${projectId}\u0000${b.digest}`, { parent: b.parent, body: b.body, bytes: b.bytes });
        }
        this.#inflater.remember(projectId, b.digest, b.text);
      },
      stored: (digest) => stored.get(projectId, digest) !== undefined,
    };
    const out = deflate(text, sink, this.#thresholds, side);
    return out === null ? null : { text: out, chars: sqlLength(text) };
  }

  /** Whether a stored call's inputs hold markers: for an output written without its start. */
  inputsStoredOnce(prepare: (sql: string) => Database.Statement, projectId: string, id: string): boolean {
    return prepare(INPUTS_ONCE_SQL).get(projectId, id) !== undefined;
  }

  /** The original text of a stored inputs or output holding markers. */
  inflate(projectId: string, text: string): string {
    return this.#inflater.inflate(projectId, text);
  }

  /** `weft_inflate(project_id, text)`, for payloadSql, on a connection. */
  register(db: Db): void {
    db.function('weft_inflate', { deterministic: true }, (projectId: unknown, text: unknown) =>
      typeof text === 'string' && typeof projectId === 'string' ? this.inflate(projectId, text) : text,
    );
  }

  /** The write transaction ended (committed or rolled back): its blobs are on the read connection, or gone. */
  settled(): void {
    if (this.#pending.size) this.#pending.clear();
  }

  /** Blobs were deleted: forget what was remembered of them. */
  forget(): void {
    this.#inflater.clear();
  }

  #loadBlob(projectId: string, digest: string): StoredBlob | undefined {
    const pending = this.#pending.get(`${projectId}\u0000${digest}`);
    if (pending) return pending;
    if (this.#file === ':memory:') return undefined;
    if (!this.#load) {
      this.#reader = new Database(this.#file, { readonly: true, fileMustExist: true });
      this.#reader.pragma('busy_timeout = 5000');
      this.#load = this.#reader.prepare(LOAD_SQL);
    }
    return this.#load.get(projectId, digest) as StoredBlob | undefined;
  }

  close(): void {
    this.#reader?.close();
    this.#reader = null;
    this.#load = null;
  }
}
