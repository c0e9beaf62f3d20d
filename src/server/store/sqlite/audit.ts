/** SQLite implementation of AuditStore (table audit_log, migration 23). */
import { chainedRow, splitAuditId } from '../../audit/auditChain.js';
import type { AuditCursor, AuditEntryInput, AuditFilter, AuditRecord, AuditStore } from '../AuditStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** The one chain of a SQLite file: its writers take turns under the file's write lock. */
export const SQLITE_CHAIN = 'sqlite';

interface Row {
  chain: string;
  seq: number;
  time: number;
  actor_username: string | null;
  actor_key_id: string | null;
  actor_via: string;
  address: string;
  action: string;
  target: string;
  entity: string | null;
  project_id: string | null;
  outcome: string;
  details: string;
  prev_hash: string;
  hash: string;
}

const toRecord = (r: Row): AuditRecord => ({
  id: `${r.chain}:${r.seq}`,
  chain: r.chain,
  seq: r.seq,
  time: r.time,
  actorUsername: r.actor_username,
  actorKeyId: r.actor_key_id,
  actorVia: r.actor_via,
  address: r.address,
  action: r.action,
  target: r.target,
  entity: r.entity,
  projectId: r.project_id,
  outcome: r.outcome,
  details: JSON.parse(r.details) as AuditRecord['details'],
  prevHash: r.prev_hash,
  hash: r.hash,
});

function where(filter: AuditFilter, cursor?: AuditCursor): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.entities !== 'all') {
    if (!filter.entities.length) return { sql: 'WHERE 0', params };
    clauses.push(`entity IN (${filter.entities.map(() => '?').join(', ')})`);
    params.push(...filter.entities);
  }
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (filter.actor !== undefined) add('(actor_username = ? OR actor_key_id = ?)', filter.actor, filter.actor);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.entity !== undefined) add('entity = ?', filter.entity);
  if (filter.projectId !== undefined) add('project_id = ?', filter.projectId);
  if (filter.since !== undefined) add('time >= ?', filter.since);
  if (filter.until !== undefined) add('time < ?', filter.until);
  if (cursor) {
    const { chain, seq } = splitAuditId(cursor.id);
    clauses.push('(time, chain, seq) < (?, ?, ?)');
    params.push(cursor.time, chain, seq);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export class SqliteAuditStore implements AuditStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async append(entry: AuditEntryInput, time: number): Promise<AuditRecord> {
    // The head is read inside the write transaction, so two processes never chain to one head.
    return this.#db.transaction(() => {
      const head = this.#db.get<{ seq: number; hash: string }>(
        'SELECT seq, hash FROM audit_log WHERE chain = ? ORDER BY seq DESC LIMIT 1',
        [SQLITE_CHAIN],
      );
      const r = chainedRow(SQLITE_CHAIN, head ?? null, entry, time);
      this.#db.run(
        `INSERT INTO audit_log (chain, seq, time, actor_username, actor_key_id, actor_via, address, action, target, entity, project_id,
           outcome, details, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
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
          JSON.stringify(r.details),
          r.prevHash,
          r.hash,
        ],
      );
      return r;
    });
  }

  async query(filter: AuditFilter, limit: number, cursor?: AuditCursor): Promise<AuditRecord[]> {
    const w = where(filter, cursor);
    return this.#db
      .all<Row>(`SELECT * FROM audit_log ${w.sql} ORDER BY time DESC, chain DESC, seq DESC LIMIT ?`, [...w.params, limit])
      .map(toRecord);
  }

  async *stream(filter: AuditFilter): AsyncIterable<AuditRecord> {
    const w = where(filter);
    for await (const r of this.#db.stream<Row>(`SELECT * FROM audit_log ${w.sql} ORDER BY time DESC, chain DESC, seq DESC`, w.params))
      yield toRecord(r);
  }

  async chains(): Promise<string[]> {
    return this.#db.all<{ chain: string }>('SELECT DISTINCT chain FROM audit_log ORDER BY chain').map((r) => r.chain);
  }

  async *walk(chain: string): AsyncIterable<AuditRecord> {
    for await (const r of this.#db.stream<Row>('SELECT * FROM audit_log WHERE chain = ? ORDER BY seq', [chain])) yield toRecord(r);
  }

  async sweep(before: number): Promise<number> {
    return this.#db.transaction(
      () =>
        this.#db.run(
          `DELETE FROM audit_log WHERE time < ?
             AND seq < (SELECT max(h.seq) FROM audit_log h WHERE h.chain = audit_log.chain)`,
          [before],
        ).changes,
    );
  }
}
