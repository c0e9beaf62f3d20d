/**
 * Migrated ClickHouse databases for the tests, used again instead of made afresh. Migrating a new
 * database runs ~110 DDL statements (1.3–1.8 s on a quiet engine, several seconds under CI's
 * load) and the ClickHouse half of the suite opens hundreds; emptying a used one with TRUNCATE
 * takes ~10 ms (docs/performance.md "Test time"). A database goes back to this process's pool
 * only while its tables and migration record are as migrated: one a test altered is dropped.
 */
import { randomBytes } from 'node:crypto';
import { ClickHouseDatabase, type ClickHouseOptions } from '../store/clickhouse/ClickHouseDatabase.js';
import { migrateClickHouse, quoteIdentifier } from '../store/clickhouse/migrate.js';

/** The record of what `weft migrate` applied (migrate.ts): kept when a database is emptied. */
const RECORD_TABLE = 'weft_schema_migrations';

type Server = Omit<ClickHouseOptions, 'database'>;

/** Each migrated database's schema as migrated, while in use or pooled. */
const fingerprints = new Map<string, string>();
/** Pooled databases per server URL, emptied when taken. */
const idle = new Map<string, string[]>();

async function withAdmin<T>(server: Server, f: (admin: ClickHouseDatabase) => Promise<T>): Promise<T> {
  const admin = new ClickHouseDatabase({ ...server, database: 'default', longStatements: true });
  try {
    return await f(admin);
  } finally {
    await admin.close();
  }
}

function dropDatabase(server: Server, database: string): Promise<void> {
  return withAdmin(server, (admin) => admin.command(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} SYNC`));
}

/** The tables' definitions and the migration record, without the database's own name. */
async function fingerprint(admin: ClickHouseDatabase, database: string): Promise<string> {
  const tables = await admin.all<{ name: string; q: string }>(
    'SELECT name, create_table_query AS q FROM system.tables WHERE database = {d:String} ORDER BY name',
    { d: database },
  );
  const record = await admin.all(`SELECT version, name FROM ${quoteIdentifier(database)}.${RECORD_TABLE} ORDER BY version`);
  return JSON.stringify([tables.map((t) => [t.name, t.q.replaceAll(`${database}.`, '')]), record]);
}

/** A migrated, empty database of its own for one test store or server. */
export async function takeClickHouseDatabase(server: Server): Promise<string> {
  const reused = idle.get(server.url)?.pop();
  if (reused) {
    await withAdmin(server, (admin) => admin.command(`TRUNCATE ALL TABLES FROM ${quoteIdentifier(reused)} NOT LIKE '${RECORD_TABLE}'`));
    return reused;
  }
  const database = `weft_t_${randomBytes(6).toString('hex')}`;
  await migrateClickHouse({ ...server, database });
  fingerprints.set(database, await withAdmin(server, (admin) => fingerprint(admin, database)));
  return database;
}

/** Hands a database back once its users have closed: pooled if still as migrated, else dropped. */
export async function giveBackClickHouseDatabase(server: Server, database: string): Promise<void> {
  const migrated = fingerprints.get(database);
  const now = await withAdmin(server, (admin) => fingerprint(admin, database)).catch(() => null);
  if (migrated !== undefined && now === migrated) {
    idle.set(server.url, [...(idle.get(server.url) ?? []), database]);
    return;
  }
  fingerprints.delete(database);
  await dropDatabase(server, database);
}

/**
 * The database name `serverEnv` gives a test server: a stand-in that startTestServer swaps for a
 * pooled database. Servers started with the same stand-in share one database, handed back when
 * the last of them closes.
 */
export function standInDatabaseName(): string {
  return `weft_s_${randomBytes(6).toString('hex')}`;
}

const STAND_IN = /^weft_s_[0-9a-f]{12}$/;
const standIns = new Map<string, { database: Promise<string>; users: number }>();

/**
 * The database a test server uses: a pooled one for a stand-in name, else the name itself,
 * migrated (and dropped on release). `release` once the server has closed.
 */
export async function claimClickHouseDatabase(options: ClickHouseOptions): Promise<{ database: string; release(): Promise<void> }> {
  const { database: name, ...server } = options;
  if (!STAND_IN.test(name)) {
    await migrateClickHouse(options);
    return {
      database: name,
      release: () => dropDatabase(server, name),
    };
  }
  let claim = standIns.get(name);
  if (!claim) standIns.set(name, (claim = { database: takeClickHouseDatabase(server), users: 0 }));
  const shared = claim;
  shared.users += 1;
  const database = await shared.database;
  return {
    database,
    release: async () => {
      shared.users -= 1;
      if (shared.users > 0) return;
      standIns.delete(name);
      await giveBackClickHouseDatabase(server, database);
    },
  };
}
