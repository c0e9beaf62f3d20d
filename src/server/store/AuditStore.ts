/**
 * The audit-log part of the storage seam (see Store.ts for the contract every store keeps):
 * an append-only list of audit entries, each chained to the one before it in its chain by a
 * SHA-256 hash (audit/auditChain.ts). No method changes a row; `sweep` only drops rows older
 * than the audit retention (docs/security/audit.md).
 */

/**
 * What an append is given: audit/auditTrail.ts AuditEntry, spelled out here so the store does
 * not depend on the trail (which depends on authentication, which depends on the store).
 */
export interface AuditEntryInput {
  actor: { username: string | null; keyId: string | null; via: string };
  address: string;
  action: string;
  target: string;
  entity: string | null;
  projectId: string | null;
  outcome: string;
  details?: Record<string, string | number | boolean | null>;
}

export interface AuditRecord {
  /** `<chain>:<seq>`: unique, and what a page cursor names. */
  id: string;
  /** One chain per writer: `sqlite` for the one SQLite file, a writer id per ClickHouse process. */
  chain: string;
  /** 1, 2, 3, … within the chain, without gaps. */
  seq: number;
  /** Epoch µs. */
  time: number;
  actorUsername: string | null;
  actorKeyId: string | null;
  actorVia: string;
  address: string;
  action: string;
  target: string;
  entity: string | null;
  projectId: string | null;
  outcome: string;
  details: Record<string, string | number | boolean | null>;
  /** The previous row's `hash` in the chain (64 zeros for the first). */
  prevHash: string;
  hash: string;
}

export interface AuditFilter {
  /** Only rows of these entities (an entity admin's view); 'all' for a global admin. */
  entities: string[] | 'all';
  actor?: string;
  action?: string;
  entity?: string;
  projectId?: string;
  /** Epoch µs, inclusive. */
  since?: number;
  /** Epoch µs, exclusive. */
  until?: number;
}

/** Where a newest-first page continues: strictly older than this row. */
export interface AuditCursor {
  time: number;
  id: string;
}

export interface AuditStore {
  /** Appends one entry at `time` (epoch µs) to this writer's chain and answers the stored row. */
  append(entry: AuditEntryInput, time: number): Promise<AuditRecord>;
  /** Newest first, up to `limit` rows, after `cursor` when given. */
  query(filter: AuditFilter, limit: number, cursor?: AuditCursor): Promise<AuditRecord[]>;
  /** Every matching row, newest first, read as it is sent (exports). */
  stream(filter: AuditFilter): AsyncIterable<AuditRecord>;
  /** The chains there are. */
  chains(): Promise<string[]>;
  /** One chain's rows in order (seq ascending): what `weft audit verify` walks. */
  walk(chain: string): AsyncIterable<AuditRecord>;
  /**
   * Drops rows older than `before` (epoch µs); answers how many went. The newest row of a chain
   * stays (SQLite), so the next entry still links to it.
   */
  sweep(before: number): Promise<number>;
}
