/**
 * The lock `weft migrate` holds on ClickHouse, so two migrators never interleave their
 * statements (docs/clickhouse.md "Migrations are a deploy step").
 *
 * ClickHouse has no advisory locks, so the lock is a consensus log (consensus.ts) of its own:
 * slot k+1 of `weft_migration_lock` is decided by whichever proposal the server stores first,
 * as job transitions are. A slot says `acquire`, `renew` or `release`, with the owner and an
 * expiry on the server's clock (so migrators' clocks play no part). The holder renews every
 * third of the lease; a migrator killed mid-way stops renewing, and once its lease has passed
 * the next `weft migrate` takes over and re-runs the half-done migration, whose statements are
 * idempotent. A holder that stalled past its lease loses its next renewal and stops before its
 * next statement. Why not KeeperMap: a single server has no Keeper, and this works on every
 * layout (the table lives on the first shard, like the job slots).
 */
import { randomUUID } from 'node:crypto';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { proposeSlot, type SlotRef } from './consensus.js';

/** Created before anything else, outside the migrations (which run under it); never dropped. */
export const LOCK_TABLE = `CREATE TABLE IF NOT EXISTS weft_migration_lock (
    name String, slot UInt32, action LowCardinality(String), owner String, token String, expires_at Int64,
    decided_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))
  ) ENGINE = MergeTree ORDER BY (name, slot) SETTINGS non_replicated_deduplication_window = 10000`;

const NAME = 'migrate';
/** How long a lease lasts without renewal: what a killed migrator costs the next one. */
export const DEFAULT_LEASE_MS = 60_000;

interface Slot {
  slot: number;
  action: string;
  owner: string;
  expires_at: string;
}

export interface MigrationLockOptions {
  leaseMs?: number;
  /** How often a waiting migrator looks again. */
  waitPollMs?: number;
  /** Tells the operator what it waits for. */
  say?: (line: string) => void;
}

const ref = (slot: number): SlotRef => ({ table: 'weft_migration_lock', keyColumn: 'name', key: NAME, slot });

/** The server's clock (µs) and the last decided slot, if any. */
async function lockState(db: ClickHouseDatabase): Promise<{ now: number; last: Slot | null }> {
  const rows = await db.consistent.all<{ now: string; slot: number | null } & Partial<Slot>>(
    `SELECT toUnixTimestamp64Micro(now64(6)) AS now, s.slot AS slot, s.t.1 AS action, s.t.2 AS owner, s.t.3 AS expires_at
      FROM (SELECT 1 AS one) AS o
      LEFT JOIN (
        SELECT 1 AS one, slot, argMin((action, owner, expires_at), (decided_at, token)) AS t
        FROM weft_migration_lock WHERE name = {n:String} GROUP BY slot ORDER BY slot DESC LIMIT 1
      ) AS s ON s.one = o.one`,
    { n: NAME },
  );
  const [row] = rows;
  if (!row) throw new Error('weft_migration_lock: no answer');
  const last = row.slot == null ? null : { slot: num(row.slot), action: row.action!, owner: row.owner!, expires_at: row.expires_at! };
  return { now: num(row.now), last };
}

export class MigrationLock {
  readonly owner: string;
  readonly #db: ClickHouseDatabase;
  readonly #leaseMs: number;
  #slot: number;
  #lost = false;
  #timer: NodeJS.Timeout | null = null;
  /** Renewals and the release, one at a time and in order. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(db: ClickHouseDatabase, owner: string, slot: number, leaseMs: number) {
    this.#db = db;
    this.owner = owner;
    this.#slot = slot;
    this.#leaseMs = leaseMs;
    this.#timer = setInterval(() => this.#renew(), Math.max(10, Math.floor(leaseMs / 3)));
    this.#timer.unref();
  }

  /** Waits until no other migrator holds the lock, then takes it. */
  static async acquire(db: ClickHouseDatabase, options: MigrationLockOptions = {}): Promise<MigrationLock> {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const owner = `${process.pid}-${randomUUID()}`;
    let told = false;
    for (;;) {
      const { now, last } = await lockState(db);
      const held = last !== null && last.action !== 'release' && num(last.expires_at) > now;
      if (held) {
        if (!told)
          options.say?.(
            `Waiting for another weft migrate (${last.owner}) to finish; its lock lapses ${Math.ceil((num(last.expires_at) - now) / 1e6)} s after it last renewed.`,
          );
        told = true;
        await new Promise((r) => setTimeout(r, options.waitPollMs ?? 500));
        continue;
      }
      const slot = (last?.slot ?? 0) + 1;
      const { won } = await proposeSlot(db, ref(slot), { action: 'acquire', owner, expires_at: now + leaseMs * 1000 });
      if (won) return new MigrationLock(db, owner, slot, leaseMs);
    }
  }

  /** Throws when another migrator took the lock over (this one stalled past its lease). */
  check(): void {
    if (this.#lost)
      throw new Error(
        'Another weft migrate took the migration lock over after this one stopped renewing it; nothing more was changed here. Run weft migrate again once it has finished.',
      );
  }

  #renew(): void {
    this.#queue = this.#queue.then(() => this.#propose('renew')).catch(() => undefined);
  }

  async #propose(action: 'renew' | 'release'): Promise<void> {
    if (this.#lost) return;
    const { now } = await lockState(this.#db);
    const slot = this.#slot + 1;
    const { won } = await proposeSlot(this.#db, ref(slot), { action, owner: this.owner, expires_at: now + this.#leaseMs * 1000 });
    if (won) this.#slot = slot;
    else this.#lost = true;
  }

  /** Gives the lock up (a no-op when it was lost). */
  async release(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#queue;
    await this.#propose('release');
  }
}
