/**
 * The audit log's hash chain (docs/security/audit.md "The hash chain"): each row's `hash` is
 * SHA-256 over the previous row's hash and a canonical serialisation of the row, so editing,
 * removing or reordering a row breaks every link after it. Both stores build rows here and
 * `weft audit verify` checks them here, so the two cannot disagree on the serialisation.
 */
import { createHash } from 'node:crypto';
import type { AuditEntryInput, AuditRecord } from '../store/AuditStore.js';

/** The `prevHash` of a chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

type Unhashed = Omit<AuditRecord, 'hash' | 'id'>;

/** Object keys sorted at every level: the same details always serialise the same way. */
const sortedKeys = (details: AuditRecord['details']): AuditRecord['details'] =>
  Object.fromEntries(
    Object.keys(details)
      .sort()
      .map((k) => [k, details[k]!]),
  );

/**
 * The row as hashed: a JSON array in a fixed field order (never an object, whose key order
 * would depend on how it was built). Adding a field later means a new version tag here.
 */
export function canonicalRow(r: Unhashed): string {
  return JSON.stringify([
    'v1',
    r.chain,
    r.seq,
    r.time,
    r.actorUsername,
    r.actorKeyId,
    r.actorVia,
    r.address,
    r.action,
    r.target,
    r.entity,
    r.projectId,
    r.outcome,
    sortedKeys(r.details),
  ]);
}

export const rowHash = (r: Unhashed): string => createHash('sha256').update(r.prevHash).update('\n').update(canonicalRow(r)).digest('hex');

/** The row that follows `prev` (null: the chain's first) for `entry` at `time`. */
export function chainedRow(chain: string, prev: { seq: number; hash: string } | null, entry: AuditEntryInput, time: number): AuditRecord {
  const seq = (prev?.seq ?? 0) + 1;
  const row: Unhashed = {
    chain,
    seq,
    time,
    actorUsername: entry.actor.username,
    actorKeyId: entry.actor.keyId,
    actorVia: entry.actor.via,
    address: entry.address,
    action: entry.action,
    target: entry.target,
    entity: entry.entity,
    projectId: entry.projectId,
    outcome: entry.outcome,
    details: sortedKeys(entry.details ?? {}),
    prevHash: prev?.hash ?? GENESIS_HASH,
  };
  return { ...row, id: auditRowId(chain, seq), hash: rowHash(row) };
}

export const auditRowId = (chain: string, seq: number): string => `${chain}:${seq}`;

/** `<chain>:<seq>` back into its parts (the chain may itself hold ':'). */
export function splitAuditId(id: string): { chain: string; seq: number } {
  const at = id.lastIndexOf(':');
  return { chain: id.slice(0, at), seq: Number(id.slice(at + 1)) };
}

export type ChainVerdict =
  | { ok: true; chain: string; rows: number; anchor: { seq: number; time: number } | null }
  | { ok: false; chain: string; rows: number; id: string; time: number; reason: string };

/**
 * Walks one chain in seq order. The first row kept is the anchor: its `prevHash` is taken as
 * given when rows before it were swept by retention (`swept`), and must be the genesis hash
 * (seq 1) otherwise. After it, every row must follow the previous one without a gap, link to
 * its hash, and hash to what it says.
 */
export async function verifyChain(chain: string, rows: AsyncIterable<AuditRecord>, swept: boolean): Promise<ChainVerdict> {
  let prev: AuditRecord | null = null;
  let count = 0;
  let anchor: { seq: number; time: number } | null = null;
  const broken = (r: AuditRecord, reason: string): ChainVerdict => ({ ok: false, chain, rows: count, id: r.id, time: r.time, reason });
  for await (const r of rows) {
    if (!prev) {
      anchor = { seq: r.seq, time: r.time };
      if (r.seq !== 1 && !swept) return broken(r, `rows 1-${r.seq - 1} of the chain are missing (no audit retention is set)`);
      if (r.seq === 1 && r.prevHash !== GENESIS_HASH) return broken(r, 'the first row does not start the chain');
    } else {
      if (r.seq !== prev.seq + 1) return broken(r, `row(s) ${prev.seq + 1}-${r.seq - 1} before it are missing`);
      if (r.prevHash !== prev.hash) return broken(r, 'it does not link to the row before it');
    }
    if (rowHash(r) !== r.hash) return broken(r, 'its contents do not match its hash (the row was changed)');
    count++;
    prev = r;
  }
  return { ok: true, chain, rows: count, anchor };
}
