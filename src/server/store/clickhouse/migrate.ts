/**
 * `weft migrate` for ClickHouse, and the checks a replica makes at start: the server is new
 * enough, and the database's schema is the one this build expects.
 */
import { ClickHouseDatabase, num, type ClickHouseOptions } from './ClickHouseDatabase.js';
import { rewriteStatement, SINGLE_NODE, type ClusterSettings } from './clusterLayout.js';
import { LOCK_TABLE, MigrationLock } from './migrationLock.js';
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

/** What `weft migrate` runs, or would run (`dryRun`). */
export interface MigrateOptions {
  /** Print nothing, change nothing: answer the statements that would run. */
  dryRun?: boolean;
  /** Stop after this version (the upgrade test builds every older schema); the newest by default. */
  to?: number;
  /** Lines for the operator (waiting for another migrator). */
  say?: (line: string) => void;
  /** The migration lock's lease (migrationLock.ts). */
  leaseMs?: number;
}

export interface MigrateResult {
  from: number;
  to: number;
  /** Every statement run (or, dry, to be run), in order, each migration's headed by a comment. */
  statements: string[];
}

/**
 * Creates the database if needed and applies every migration not yet recorded, under the
 * migration lock (migrationLock.ts), so a second `weft migrate` waits for the first and then
 * finds nothing to do. Statements run without an execution-time limit (MIGRATION_SETTINGS).
 * Every statement is idempotent, so a migration cut off half-way (a killed migrator, a lost
 * connection) is simply run again whole by the next `weft migrate`: the version is recorded
 * only after its last statement.
 *
 * On a cluster (clusterLayout.ts) each statement is rewritten for the layout. With `ON CLUSTER`
 * one run migrates every node, and the record goes to a table every node reads (replicated, or
 * one shard's behind a Distributed table). Without it (`onCluster: false`; the npm test engine,
 * where distributed DDL is disabled) run this against each node in turn: each node then keeps
 * its own record and its own lock, so a node not yet migrated is seen as such by the replicas
 * that use it.
 */
export async function migrateClickHouse(
  options: ClickHouseOptions,
  cluster: ClusterSettings = SINGLE_NODE,
  run: MigrateOptions = {},
): Promise<MigrateResult> {
  const database = quoteIdentifier(options.database);
  const on = cluster.layout !== 'single' && cluster.onCluster ? ` ON CLUSTER ${cluster.cluster}` : '';
  const target = run.to ?? LATEST_CLICKHOUSE_VERSION;
  const rewrite = (sql: string) => rewriteStatement(sql, options.database, cluster);
  const statements: string[] = [];
  // CREATE DATABASE goes through a connection to `default`, since the target may not exist yet.
  const admin = new ClickHouseDatabase({ ...options, database: 'default', longStatements: true });
  let exists: boolean;
  try {
    await checkServerVersion(admin);
    const row = await admin.get<{ n: string }>('SELECT count() AS n FROM system.databases WHERE name = {d:String}', {
      d: options.database,
    });
    exists = num(row?.n ?? 0) > 0;
    const create = `CREATE DATABASE IF NOT EXISTS ${database}${on}`;
    statements.push(create);
    if (!run.dryRun) await admin.command(create);
  } finally {
    await admin.close();
  }
  const db = new ClickHouseDatabase({ ...options, longStatements: true });
  // The lock's slots and the record of what was applied are read-your-writes on replicas.
  db.quorum =
    options.quorum === 'on' || (options.quorum !== 'off' && (cluster.layout === 'replicated' || cluster.layout === 'replicated-sharded'));
  let lock: MigrationLock | null = null;
  try {
    // Migrated node by node, each node keeps its own record and lock, as plain tables.
    const bootstrap = on ? [LOCK_TABLE, SCHEMA_TABLE].flatMap(rewrite) : [LOCK_TABLE, SCHEMA_TABLE];
    statements.push(...bootstrap);
    if (!run.dryRun) {
      for (const statement of bootstrap) await db.command(statement);
      lock = await MigrationLock.acquire(db, { leaseMs: run.leaseMs, say: run.say });
    }
    // Read under the lock: whatever a migrator before this one applied is recorded by now
    // (a dry run takes no lock, and reads nothing from a database that does not exist yet).
    const from = run.dryRun && !exists ? 0 : await appliedVersion(db);
    for (const m of clickhouseMigrations) {
      if (m.version <= from || m.version > target) continue;
      statements.push(`-- migration ${m.version}: ${m.name}`);
      for (const statement of m.statements.flatMap(rewrite)) {
        statements.push(statement);
        if (run.dryRun) continue;
        lock!.check();
        await db.command(statement);
      }
      if (run.dryRun) continue;
      lock!.check();
      await db.consistent.insert('weft_schema_migrations', [{ version: m.version, name: m.name, applied_at: Date.now() * 1000 }]);
    }
    return { from, to: Math.max(from, target), statements };
  } finally {
    await lock?.release().catch(() => undefined);
    await db.close();
  }
}

/** A database name as a backquoted identifier; only plain names are accepted. */
export function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`ClickHouse database name "${name}" must be letters, digits and _`);
  return `\`${name}\``;
}
