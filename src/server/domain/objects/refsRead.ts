/**
 * refs/read_batch (docs/api/core.md §3.5): resolves each ref to the value it names.
 *
 * Decisions, from the reference servers (sqlite_trace_server.py, clickhouse refs repository):
 * - more than 1000 refs, a call ref, or a bare table ref: 400 ("not supported in batch read";
 *   calls are read with calls/stream_query, whole tables with table/query);
 * - a version written as `latest`, `v<N>` or an alias: 400 (refs name content digests);
 * - a missing object version: 404 (SQLite reference); a deleted one: null;
 * - the extra path is walked edge by edge: `key`/`attr` look up a dict key, `index` a list
 *   position (negative counts from the end, as in Python), `id` a row of the table ref it is
 *   applied to. A missing key, index or row answers null (as the ClickHouse server does).
 * - when the walk meets a ref string, it continues inside that object or table, but only
 *   within the same project (a hop elsewhere answers null: its access was not checked).
 * - a table-row ref (`.../table/<digest>/id/<row>`, what the TypeScript SDK's TableRowRef
 *   writes) resolves to that row; the reference rejects all table refs, but these name one
 *   small value and cost nothing to support.
 * - bounded (docs/security/bounded-work.md): a ref repeated in the batch is read once; more
 *   refs than `maxRefBatch` is 400 (the reference's 1,000 by default); answering more than
 *   `maxRefBatchBytes` of values, every position counted, is 413, decided while reading.
 */
import { BadRequestError, NotFoundError, TooLargeError } from '../../errors.js';
import { DEFAULT_LIMITS, limitText, type Limits } from '../../limits.js';
import type { Store } from '../../store/Store.js';
import { isContentDigest } from './digests.js';
import { isRefString, parseRef, type WeaveRef } from './refs.js';

const MAX_HOPS = 64;

type Json = unknown;

/** Every project the refs name (each must be access-checked); 400 for an unparseable ref. */
export function refProjects(refs: string[]): string[] {
  return [...new Set(refs.map((r) => parseRef(r).projectId))];
}

export async function readRefs(store: Store, refs: string[], limits: Limits = DEFAULT_LIMITS): Promise<Json[]> {
  if (refs.length > limits.maxRefBatch) {
    throw new BadRequestError(`Too many refs: ${refs.length}; ${limitText('maxRefBatch', limits)} per request`);
  }
  const distinct = [...new Set(refs)];
  const parsed = distinct.map(parseRef);
  for (const ref of parsed) {
    if (ref.kind === 'call') throw new BadRequestError('Call refs not supported in batch read, use calls/stream_query');
    if (ref.kind === 'table' && ref.extra[0] !== 'id') throw new BadRequestError('Table refs not supported, use table/query');
    if ((ref.kind === 'object' || ref.kind === 'op') && !isContentDigest(ref.digest)) {
      throw new BadRequestError(`Refs must name a content digest, not "${ref.digest}"`);
    }
  }
  const uses = new Map<string, number>();
  for (const r of refs) uses.set(r, (uses.get(r) ?? 0) + 1);
  const values = new Map<string, Json>();
  let bytes = 0;
  for (let i = 0; i < distinct.length; i++) {
    const value = await readTopLevel(store, parsed[i]!);
    // The answer repeats a value at every position that asked for it, so each counts.
    bytes += jsonBytes(value) * uses.get(distinct[i]!)!;
    if (bytes > limits.maxRefBatchBytes) {
      throw new TooLargeError(
        `The values of these refs come to more than ${limits.maxRefBatchBytes} bytes; ${limitText('maxRefBatchBytes', limits)}. Read fewer refs per request.`,
      );
    }
    values.set(distinct[i]!, value);
  }
  return refs.map((r) => values.get(r));
}

/** About the bytes a value takes in the JSON answer. */
function jsonBytes(value: Json): number {
  return value === undefined ? 4 : Buffer.byteLength(JSON.stringify(value) ?? 'null');
}

async function readTopLevel(store: Store, ref: WeaveRef): Promise<Json> {
  if (ref.kind === 'table') {
    const rowDigest = ref.extra[1]!;
    const rows = await store.tables.readRows({ projectId: ref.projectId, digests: [rowDigest] });
    const row = rows.get(rowDigest);
    if (row === undefined) throw new NotFoundError(`Row ${rowDigest} not found`);
    return walk(store, ref.projectId, JSON.parse(row), ref.extra.slice(2));
  }
  if (ref.kind !== 'object' && ref.kind !== 'op') return null;
  const obj = await store.objects.readObject({ projectId: ref.projectId, objectId: ref.name, version: { digest: ref.digest } });
  if (!obj) throw new NotFoundError(`Obj ${ref.name}:${ref.digest} not found`);
  if (obj.deletedAt !== null) return null;
  return walk(store, ref.projectId, JSON.parse(obj.valJson!), ref.extra);
}

/** Follows edge/value pairs from `val`, entering refs met on the way; null when a step fails. */
async function walk(store: Store, projectId: string, val: Json, extra: string[]): Promise<Json> {
  let hops = 0;
  for (let i = 0; i < extra.length; i += 2) {
    const edge = extra[i]!;
    const arg = extra[i + 1]!;
    if (edge === 'id') {
      val = await readRowOf(store, projectId, val, arg);
    } else {
      while (isRefString(val)) {
        if (++hops > MAX_HOPS) return null;
        val = await derefObject(store, projectId, val);
      }
      val = step(val, edge, arg);
    }
    if (val === undefined) return null;
  }
  return val;
}

function step(val: Json, edge: string, arg: string): Json | undefined {
  if (edge === 'index') {
    if (!Array.isArray(val)) return undefined;
    const i = Number(arg);
    return val[i < 0 ? val.length + i : i];
  }
  if (val === null || typeof val !== 'object' || Array.isArray(val)) return undefined;
  return Object.hasOwn(val, arg) ? (val as Record<string, Json>)[arg] : undefined;
}

/** The value of an object ref met inside a value, if it is in the same project and live. */
async function derefObject(store: Store, projectId: string, uri: string): Promise<Json | undefined> {
  const ref = safeParse(uri);
  if (!ref || (ref.kind !== 'object' && ref.kind !== 'op') || ref.projectId !== projectId || ref.extra.length > 0) return undefined;
  const obj = await store.objects.readObject({ projectId, objectId: ref.name, version: { digest: ref.digest } });
  return obj && obj.deletedAt === null ? JSON.parse(obj.valJson!) : undefined;
}

/** The `id` edge: the current value must be a table ref of the same project. */
async function readRowOf(store: Store, projectId: string, val: Json, rowDigest: string): Promise<Json | undefined> {
  const ref = isRefString(val) ? safeParse(val) : null;
  if (!ref || ref.kind !== 'table' || ref.projectId !== projectId) return undefined;
  const row = (await store.tables.readRows({ projectId, digests: [rowDigest] })).get(rowDigest);
  return row === undefined ? undefined : JSON.parse(row);
}

function safeParse(uri: string): WeaveRef | null {
  try {
    return parseRef(uri);
  } catch {
    return null;
  }
}
