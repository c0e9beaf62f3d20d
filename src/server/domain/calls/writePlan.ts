/**
 * A write plan: the files, tables, object versions, calls and feedback one request writes,
 * gathered first (hashing values the way `/file/create`, `/table/create` and `/obj/create`
 * do) and then applied as one store write batch, so a request that fails half-way leaves
 * nothing behind. The v2 evaluation APIs build everything they store through it.
 */
import type { FeedbackWrite } from '../../store/FeedbackStore.js';
import type { CallWrite, ObjectWrite, Store } from '../../store/Store.js';
import type { StoreWrite } from '../../store/WriteBatch.js';
import { bytesDigest, tableDigest } from '../objects/digests.js';
import { FILE_CHUNK_BYTES } from '../objects/files.js';
import type { LosslessObject, LosslessValue } from '../objects/losslessJson.js';
import { toObjectWrite } from '../objects/objects.js';
import { formatObjectRef } from '../objects/refs.js';
import { hashRow } from '../objects/tables.js';
import { metrics } from '../../metrics/hooks.js';

/** The name SDKs give an op's (and a model's) source file. */
export const SOURCE_FILE_NAME = 'obj.py';

interface FileWrite {
  projectId: string;
  digest: string;
  name: string;
  chunks: Uint8Array[];
  createdAt: number;
}

interface TableWrite {
  projectId: string;
  digest: string;
  rowDigests: string[];
  rows: { digest: string; valJson: string }[];
  createdAt: number;
}

/** Who writes, into which project, and when (epoch µs, read once from the services clock). */
export interface Writer {
  projectId: string;
  userId: string;
  now: number;
}

interface HashedOp {
  fileDigest: string;
  chunks: Uint8Array[];
  /** The op object's write but for its project, user and time, which its digest does not cover. */
  object: Omit<ObjectWrite, 'projectId' | 'wbUserId' | 'createdAt'>;
}

/**
 * The v2 APIs write the same few placeholder ops (`<model>.predict`, `<scorer>.score`,
 * `Evaluation.predict_and_score`) with every prediction and score: their file and object
 * digests depend only on name and source, so each is hashed once per process instead of per
 * request (hashing and serialising them was a tenth of a prediction's request-thread CPU in
 * cpu-prof). Bounded: past OP_CACHE_SIZE names the oldest is forgotten.
 */
const OP_CACHE_SIZE = 1000;
const hashedOps = new Map<string, HashedOp>();

function hashedOp(name: string, source: string): HashedOp {
  const key = `${name}\u0000${source}`;
  const known = hashedOps.get(key);
  if (known) return known;
  const bytes = new TextEncoder().encode(source);
  const fileDigest = bytesDigest(bytes);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += FILE_CHUNK_BYTES) chunks.push(bytes.subarray(at, at + FILE_CHUNK_BYTES));
  const val: LosslessObject = new Map<string, LosslessValue>([
    ['_type', 'CustomWeaveType'],
    ['weave_type', new Map([['type', 'Op']])],
    ['files', new Map([[SOURCE_FILE_NAME, fileDigest]])],
  ]);
  const {
    projectId: _p,
    wbUserId: _u,
    createdAt: _c,
    ...object
  } = toObjectWrite({
    projectId: '',
    objectId: name,
    val,
    builtinObjectClass: null,
    wbUserId: '',
    now: 0,
  });
  const op: HashedOp = { fileDigest, chunks, object };
  if (hashedOps.size >= OP_CACHE_SIZE) hashedOps.delete(hashedOps.keys().next().value!);
  hashedOps.set(key, op);
  return op;
}

export class WritePlan {
  readonly files: FileWrite[] = [];
  readonly tables: TableWrite[] = [];
  readonly objects: ObjectWrite[] = [];
  readonly calls: CallWrite[] = [];
  readonly feedback: FeedbackWrite[] = [];

  readonly projectId: string;
  readonly userId: string;
  /** Every record's creation time. */
  readonly now: number;

  constructor(writer: Writer) {
    this.projectId = writer.projectId;
    this.userId = writer.userId;
    this.now = writer.now;
  }

  /** A text file; answers its digest. */
  file(name: string, text: string): string {
    return this.bytesFile(name, new TextEncoder().encode(text));
  }

  /** A file of bytes; answers its digest. */
  bytesFile(name: string, bytes: Uint8Array): string {
    const digest = bytesDigest(bytes);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.byteLength; at += FILE_CHUNK_BYTES) chunks.push(bytes.subarray(at, at + FILE_CHUNK_BYTES));
    this.files.push({ projectId: this.projectId, digest, name, chunks, createdAt: this.now });
    return digest;
  }

  /** A table of rows (each must be an object, else 400); answers its digest. */
  table(rows: LosslessValue[]): string {
    const hashed = rows.map(hashRow);
    const rowDigests = hashed.map((r) => r.digest);
    const digest = tableDigest(rowDigests);
    this.tables.push({ projectId: this.projectId, digest, rowDigests, rows: hashed, createdAt: this.now });
    return digest;
  }

  /**
   * A table of the base table's rows (by digest, already stored) followed by `rows`; answers
   * its digest. Only the new rows are written, as `/table/update` appends.
   */
  appendedTable(baseRowDigests: string[], rows: LosslessValue[]): string {
    const hashed = rows.map(hashRow);
    const rowDigests = [...baseRowDigests, ...hashed.map((r) => r.digest)];
    const digest = tableDigest(rowDigests);
    this.tables.push({ projectId: this.projectId, digest, rowDigests, rows: hashed, createdAt: this.now });
    return digest;
  }

  /** An object version; answers its digest. */
  object(objectId: string, val: LosslessObject): string {
    const write = toObjectWrite({
      projectId: this.projectId,
      objectId,
      val,
      builtinObjectClass: null,
      wbUserId: this.userId,
      now: this.now,
    });
    this.objects.push(write);
    return write.digest;
  }

  /**
   * An op whose code is `source`, stored as the SDKs store one: the source as the file obj.py
   * and a `CustomWeaveType` object of type Op pointing at it. Answers the op's ref. (The TS SDK
   * also writes `load_op: "NO_LOAD_OP"`; the reference's v2 ops do not, and neither do we.)
   * Both writes are still made every time (they are idempotent, and recreate what was
   * purged); only their hashing is remembered, see `hashedOp`.
   */
  op(name: string, source: string): string {
    const op = hashedOp(name, source);
    this.files.push({ projectId: this.projectId, digest: op.fileDigest, name: SOURCE_FILE_NAME, chunks: op.chunks, createdAt: this.now });
    // Named, not `{ ...op.object, projectId, ... }`: keys added to a spread copy go through
    // V8's runtime on Node 20 (~0.5 µs each), and every evaluation logger's request writes an op.
    const { objectId, digest, kind, baseObjectClass, leafObjectClass, valJson, sizeBytes } = op.object;
    this.objects.push({
      projectId: this.projectId,
      objectId,
      digest,
      kind,
      baseObjectClass,
      leafObjectClass,
      valJson,
      sizeBytes,
      wbUserId: this.userId,
      createdAt: this.now,
    });
    return formatObjectRef({ kind: 'op', projectId: this.projectId, name, digest: op.object.digest });
  }

  /** The plan as one write batch: files and tables before the objects and calls that refer to them. */
  batch(): StoreWrite[] {
    return [
      ...this.files.map((file): StoreWrite => ({ kind: 'files.create', file })),
      ...this.tables.map((table): StoreWrite => ({ kind: 'tables.create', table })),
      ...this.objects.map((object): StoreWrite => ({ kind: 'objects.create', object })),
      ...(this.calls.length ? [{ kind: 'calls.write', calls: this.calls } as const] : []),
      ...(this.feedback.length ? [{ kind: 'feedback.create', rows: this.feedback } as const] : []),
    ];
  }

  /** Applies everything together (see Store.apply). */
  async apply(store: Store): Promise<void> {
    await store.apply(this.batch());
    this.#counted();
  }

  /** Applies everything as the request's last store call: its answer may be built while the writes commit (Store.applyLast). */
  async applyLast(store: Store): Promise<void> {
    await store.applyLast(this.batch());
    this.#counted();
  }

  #counted(): void {
    const starts = this.calls.filter((c) => c.kind === 'start').length;
    if (this.calls.length) metrics.ingested('evaluation', starts, this.calls.length - starts);
    if (this.feedback.length) metrics.feedbackWritten(this.feedback.length);
  }
}
