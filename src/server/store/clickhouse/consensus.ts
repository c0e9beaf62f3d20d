/**
 * Compare-and-set on ClickHouse, which has no row locks and no transactions: a log whose
 * entries ("slots") are decided one at a time, by whichever proposal the server stores first.
 *
 * How a slot is decided: a process that saw slot k decided proposes slot k+1 by inserting one
 * row with a random `token`, under the insert deduplication token "<key>/<k+1>". ClickHouse
 * checks deduplication tokens atomically when it commits a block (under the table's lock on a
 * single server, in Keeper on a replicated one), so of any number of proposals racing for a
 * slot exactly one row is stored and the others are silently dropped. The proposer then reads
 * the slot back: it won when the stored row carries its token. Losers back off and read what
 * was decided instead.
 *
 * Assumptions, said out loud:
 * - Inserts are synchronous (`async_insert=0`, ClickHouseDatabase) and the read-back sees the
 *   decided row. On one server that holds as is; on a replicated cluster proposals and
 *   read-backs go through `db.consistent` (a majority quorum, `insert_quorum_parallel=0`,
 *   `select_sequential_consistency=1`). The decision itself needs no quorum: Keeper keeps the
 *   token, so a shard that lost one of its two replicas (too few for a majority) still
 *   decides each slot once, written without the quorum. Even a read-back that missed the
 *   winner could only see no row — never a false win, since one row exists.
 * - Deduplication remembers the last 10,000 blocks of the table
 *   (`non_replicated_deduplication_window`, `replicated_deduplication_window` on replicas). A
 *   proposer that stalls longer than 10,000 other decisions between reading slot k and
 *   proposing k+1 gets its row stored beside the winner; every reader then takes the earliest
 *   by (`decided_at`, token), `decided_at` being the server's clock at the insert, so the
 *   stalled, later proposal still loses.
 * - A proposal whose insert failed on the network may have landed; its retry carries a new
 *   token and so reads as lost. The slot is then held by nobody alive; the callers' timeouts
 *   (a job's stale heartbeat) recover from that.
 */
import { randomUUID } from 'node:crypto';
import type { ClickHouseDatabase } from './ClickHouseDatabase.js';

/** Which log: the table, its key column and value, and the slot proposed. */
export interface SlotRef {
  table: 'job_slots' | 'monitor_sweeps' | 'weft_migration_lock';
  keyColumn: 'job_id' | 'project_id' | 'name';
  key: string;
  slot: number;
}

/** The decided row of a slot (the earliest stored by server time, then token), or null when none is stored. */
export async function decidedSlot<T extends { token: string }>(db: ClickHouseDatabase, ref: SlotRef): Promise<T | null> {
  return db.consistent.get<T>(
    `SELECT * FROM ${ref.table} WHERE ${ref.keyColumn} = {k:String} AND slot = {s:UInt32} ORDER BY decided_at, token LIMIT 1`,
    { k: ref.key, s: ref.slot },
  );
}

/**
 * Proposes `row` for a slot; answers whether it was decided, and the decided row (this one or
 * the one that won).
 */
export async function proposeSlot<T extends { token: string }>(
  db: ClickHouseDatabase,
  ref: SlotRef,
  row: Record<string, unknown>,
): Promise<{ won: boolean; decided: T | null }> {
  const token = randomUUID();
  await db.consistent.insert(ref.table, [{ ...row, [ref.keyColumn]: ref.key, slot: ref.slot, token }], undefined, {
    insert_deduplicate: 1,
    insert_deduplication_token: JSON.stringify([ref.key, ref.slot]),
  });
  const decided = await decidedSlot<T>(db, ref);
  return { won: decided?.token === token, decided };
}
