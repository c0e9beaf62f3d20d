/**
 * `weft migrate` for ClickHouse, and the checks a replica makes at start: the server is new
 * enough, and the database's schema is the one this build expects.
 */
import { ClickHouseDatabase, num, type ClickHouseOptions } from './ClickHouseDatabase.js';
import { rewriteStatement, SINGLE_NODE, type ClusterSettings } from './clusterLayout.js';
import { clickhouseMigrations, LATEST_CLICKHOUSE_VERSION, SCHEMA_TABLE } from './migrations/index.js';

/**
 * The oldest server Weft supports: 25.8 LTS. CoalescingMergeTree needs 25.6; JSON functions,
 * lightweight DELETE and `{p:Type}` parameters are older. Tests run 26.7 (chdb), so SQL newer
 * than 25.8 must not be used.
 */
export const MIN_CLICKHOUSE_VERSION = [25, 8] as const;

/** Refuses a server older than MIN_CLICKHOUSE_VERSION, saying which it found. */
export async function checkServerVersion(db: ClickHouseDatabase): Promise<string> {
  const row = await db.get<{ v: string }>('SELECT version() AS v');
  const version = row?.v ?? '0';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = MIN_CLICKHOUSE_VERSION;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    throw new Error(`ClickHouse ${version} is too old for Weft: it needs ${needMajor}.${needMinor} or newer (CoalescingMergeTree).`);
  }
  return version;
}

/** The highest migration recorded in the database (0 for none). */
export async function appliedVersion(db: ClickHouseDatabase): Promise<number> {
  const exists = await db.get<{ n: string }>(
    "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'weft_schema_migrations'",
  );
  if (!exists || num(exists.n) === 0) return 0;
  const row = await db.get<{ v: number | string | null }>('SELECT max(version) AS v FROM weft_schema_migrations');
  return num(row?.v ?? 0);
}

/**
 * Creates the database if needed and applies every migration not yet recorded. Safe to run
 * from several replicas at once: each statement is idempotent, and recording twice is harmless.
 *
 * On a cluster (clusterLayout.ts) each statement is rewritten for the layout. With `ON CLUSTER`
 * one run migrates every node, and the record goes to a table every node reads (replicated, or
 * one shard's behind a Distributed table). Without it (`onCluster: false`; the npm test engine,
 * where distributed DDL is disabled) run this against each node in turn: each node then keeps
 * its own record, so a node not yet migrated is seen as such by the replicas that use it.
 */
export async function migrateClickHouse(
  options: ClickHouseOptions,
  cluster: ClusterSettings = SINGLE_NODE,
): Promise<{ from: number; to: number }> {
  const database = quoteIdentifier(options.database);
  const on = cluster.layout !== 'single' && cluster.onCluster ? ` ON CLUSTER ${cluster.cluster}` : '';
  // CREATE DATABASE goes through a connection to `default`, since the target may not exist yet.
  const admin = new ClickHouseDatabase({ ...options, database: 'default' });
  try {
    await checkServerVersion(admin);
    await admin.command(`CREATE DATABASE IF NOT EXISTS ${database}${on}`);
  } finally {
    await admin.close();
  }
  const rewrite = (sql: string) => rewriteStatement(sql, options.database, cluster);
  const db = new ClickHouseDatabase(options);
  try {
    for (const statement of on ? rewrite(SCHEMA_TABLE) : [SCHEMA_TABLE]) await db.command(statement);
    const from = await appliedVersion(db);
    for (const m of clickhouseMigrations) {
      if (m.version <= from) continue;
      for (const statement of m.statements.flatMap(rewrite)) await db.command(statement);
      await db.insert('weft_schema_migrations', [{ version: m.version, name: m.name, applied_at: Date.now() * 1000 }]);
    }
    return { from, to: LATEST_CLICKHOUSE_VERSION };
  } finally {
    await db.close();
  }
}

/** A database name as a backquoted identifier; only plain names are accepted. */
export function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`ClickHouse database name "${name}" must be letters, digits and _`);
  return `\`${name}\``;
}
