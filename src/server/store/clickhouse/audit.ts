/**
 * ClickHouse implementation of AuditStore (table audit_log, migrations/v14AuditLog.ts).
 *
 * One chain per writer: each store (one per server process, so per replica and per `--workers`
 * process) writes a chain of its own, named when it first appends, and keeps its head in
 * memory. ClickHouse has no lock to take a shared head under, and a head read then an insert
 * from two replicas at once would fork one chain; chains of their own never race, and each is
 * verified alone (docs/security/audit.md "The hash chain"). Appends of one store are
 * serialised here. A row whose insert failed keeps its place: it is inserted again, unchanged,
 * before the next row, so the chain has no gap (and a row that did land collapses into one by
 * its key).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { chainedRow, splitAuditId } from '../../audit/auditChain.js';
import type { AuditCursor, AuditEntryInput, AuditFilter, AuditRecord, AuditStore } from '../AuditStore.js';
import { num, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';
import { distributedTarget } from './clusterLayout.js';

interface Row {
  chain: string;
  seq: string;
  time: string;
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
  id: `${r.chain}:${num(r.seq)}`,
  chain: r.chain,
  seq: num(r.seq),
  time: num(r.time),
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

const toRow = (r: AuditRecord) => ({
  chain: r.chain,
  seq: r.seq,
  time: r.time,
  actor_username: r.actorUsername,
  actor_key_id: r.actorKeyId,
  actor_via: r.actorVia,
  address: r.address,
  action: r.action,
  target: r.target,
  entity: r.entity,
  project_id: r.projectId,
  outcome: r.outcome,
  details: JSON.stringify(r.details),
  prev_hash: r.prevHash,
  hash: r.hash,
});

function where(filter: AuditFilter, cursor?: AuditCursor): { sql: string; params: Params } {
  const clauses: string[] = [];
  const params: Params = {};
  if (filter.entities !== 'all') {
    if (!filter.entities.length) return { sql: 'WHERE 0', params };
    clauses.push('entity IN {es:Array(String)}');
    params.es = filter.entities;
  }
  const add = (clause: string, name: string, value: unknown) => {
    clauses.push(clause);
    params[name] = value;
  };
  if (filter.actor !== undefined) add('(actor_username = {a:String} OR actor_key_id = {a:String})', 'a', filter.actor);
  if (filter.action !== undefined) add('action = {ac:String}', 'ac', filter.action);
  if (filter.entity !== undefined) add('entity = {e:String}', 'e', filter.entity);
  if (filter.projectId !== undefined) add('project_id = {p:String}', 'p', filter.projectId);
  if (filter.since !== undefined) add('time >= {s:Int64}', 's', filter.since);
  if (filter.until !== undefined) add('time < {u:Int64}', 'u', filter.until);
  if (cursor) {
    const { chain, seq } = splitAuditId(cursor.id);
    clauses.push('(time, chain, seq) < ({ct:Int64}, {cc:String}, {cs:UInt64})');
    Object.assign(params, { ct: cursor.time, cc: chain, cs: seq });
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export class ClickHouseAuditStore implements AuditStore {
  readonly #db: ClickHouseDatabase;
  /** This writer's chain: host, process and a random part, so two starts never share one. */
  readonly #chain = `${hostname().replace(/[^\w.-]/g, '_')}-${process.pid}-${randomBytes(4).toString('hex')}`;
  #head: { seq: number; hash: string } | null = null;
  /** A row whose insert failed, inserted again before the next. */
  #pending: AuditRecord | null = null;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  append(entry: AuditEntryInput, time: number): Promise<AuditRecord> {
    const next = this.#turn.then(async () => {
      if (this.#pending) await this.#insert(this.#pending);
      const row = chainedRow(this.#chain, this.#head, entry, time);
      await this.#insert(row);
      return row;
    });
    this.#turn = next.catch(() => {});
    return next;
  }

  async #insert(row: AuditRecord): Promise<void> {
    this.#pending = row;
    this.#head = { seq: row.seq, hash: row.hash };
    await this.#db.insert('audit_log', [toRow(row)]);
    this.#pending = null;
  }

  async query(filter: AuditFilter, limit: number, cursor?: AuditCursor): Promise<AuditRecord[]> {
    const w = where(filter, cursor);
    const rows = await this.#db.all<Row>(
      `SELECT * FROM audit_log FINAL ${w.sql} ORDER BY time DESC, chain DESC, seq DESC LIMIT {limit:UInt32}`,
      { ...w.params, limit },
    );
    return rows.map(toRecord);
  }

  async *stream(filter: AuditFilter): AsyncIterable<AuditRecord> {
    const w = where(filter);
    for await (const r of this.#db.stream<Row>(`SELECT * FROM audit_log FINAL ${w.sql} ORDER BY time DESC, chain DESC, seq DESC`, w.params))
      yield toRecord(r);
  }

  async chains(): Promise<string[]> {
    return (await this.#db.all<{ chain: string }>('SELECT DISTINCT chain FROM audit_log ORDER BY chain')).map((r) => r.chain);
  }

  async *walk(chain: string): AsyncIterable<AuditRecord> {
    for await (const r of this.#db.stream<Row>('SELECT * FROM audit_log FINAL WHERE chain = {c:String} ORDER BY seq', { c: chain }))
      yield toRecord(r);
  }

  async sweep(before: number): Promise<number> {
    const n = await this.#db.get<{ n: string }>('SELECT count() AS n FROM audit_log FINAL WHERE time < {b:Int64}', { b: before });
    if (!n || num(n.n) === 0) return 0;
    // A lightweight delete; this writer's own head stays in memory, so its next row still links.
    // A Distributed table takes no DELETE: on a sharded cluster it goes to the local tables.
    const target = await distributedTarget(this.#db, 'audit_log');
    if (!target) await this.#db.command('DELETE FROM audit_log WHERE time < {b:Int64}', { b: before });
    else {
      const on = this.#db.onCluster ? ` ON CLUSTER ${target.cluster}` : '';
      await this.#db.command(`DELETE FROM ${target.local}${on} WHERE time < {b:Int64}`, { b: before });
    }
    return num(n.n);
  }
}
