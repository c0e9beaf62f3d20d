/**
 * One source of DDL (migrations/, written for a single server), three cluster layouts: the
 * migrator rewrites each statement's engine, table name and `ON CLUSTER` clause, as Weave's
 * ClickHouse migrator does (docs/clickhouse.md "Cluster deployment").
 *
 * - `single`: one server; the statements as written.
 * - `replicated`: every table `Replicated<Engine>` with a Keeper path per shard and table, so
 *   each replica holds everything (one shard, several replicas; the HA setup).
 * - `sharded` / `replicated-sharded`: every table is `<t>_local` (plain, or Replicated in the
 *   production layout) plus `<t>` = `Distributed(<cluster>, <db>, <t>_local, <shard key>)` on
 *   every node. The store reads and writes `<t>` and never names `_local`: no query text depends
 *   on the layout, only the per-request settings in ClickHouseDatabase (foreground inserts,
 *   GLOBAL subqueries). `sharded` (unreplicated shards) is what the tests run here: the npm
 *   engine has no interserver listener, so Replicated tables cannot replicate in it.
 *
 * `ON CLUSTER <cluster>` runs each statement on every node at once; without it (or on an
 * engine where distributed DDL is disabled, as the npm engine here) `weft migrate` runs against
 * each node in turn with `WEFT_CLICKHOUSE_ON_CLUSTER=0` and applies the same statements there.
 */
import { readSetting } from '../../settings.js';
import type { ClickHouseDatabase } from './ClickHouseDatabase.js';

export type ClickHouseLayout = 'single' | 'replicated' | 'sharded' | 'replicated-sharded';
const LAYOUTS: readonly ClickHouseLayout[] = ['single', 'replicated', 'sharded', 'replicated-sharded'];

export interface ClusterSettings {
  layout: ClickHouseLayout;
  /** The cluster's name in the servers' `remote_servers` (null for `single`). */
  cluster: string | null;
  /** DDL with `ON CLUSTER` (applied once for the cluster) or without (applied per node). */
  onCluster: boolean;
}

export const SINGLE_NODE: ClusterSettings = { layout: 'single', cluster: null, onCluster: false };

/** The `weft migrate` flags beside the server's (cli.ts), each also an environment setting. */
export const CLUSTER_FLAGS = {
  'clickhouse-layout': { type: 'string' },
  'clickhouse-cluster': { type: 'string' },
  'clickhouse-on-cluster': { type: 'string' },
} as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** WEFT_CLICKHOUSE_LAYOUT / _CLUSTER / _ON_CLUSTER (or the flags), checked. */
export function clusterSettingsFrom(env: NodeJS.ProcessEnv, flags: Record<string, string> = {}): ClusterSettings {
  const layout = readSetting('WEFT_CLICKHOUSE_LAYOUT', env, flags) ?? 'single';
  const cluster = readSetting('WEFT_CLICKHOUSE_CLUSTER', env, flags) ?? null;
  const onCluster = readSetting('WEFT_CLICKHOUSE_ON_CLUSTER', env, flags) ?? '1';
  if (!LAYOUTS.includes(layout as ClickHouseLayout)) {
    throw new Error(`WEFT_CLICKHOUSE_LAYOUT must be one of ${LAYOUTS.join(', ')}, not "${layout}"`);
  }
  if (onCluster !== '0' && onCluster !== '1') throw new Error(`WEFT_CLICKHOUSE_ON_CLUSTER must be 0 or 1, not "${onCluster}"`);
  if (layout === 'single') {
    if (cluster)
      throw new Error(`WEFT_CLICKHOUSE_CLUSTER is set but WEFT_CLICKHOUSE_LAYOUT is "single"; choose ${LAYOUTS.slice(1).join(', ')}`);
    return SINGLE_NODE;
  }
  if (!cluster || !IDENTIFIER.test(cluster)) {
    throw new Error(
      `WEFT_CLICKHOUSE_LAYOUT=${layout} needs WEFT_CLICKHOUSE_CLUSTER, the cluster's name in remote_servers (letters, digits, _)`,
    );
  }
  return { layout: layout as ClickHouseLayout, cluster, onCluster: onCluster === '1' };
}

/**
 * Where each table's rows live in the sharded layouts: a shard key expression over its columns.
 *
 * - calls: `sipHash64(project_id, id)`. Every part of one call (start, end, rename, delete,
 *   sweep mark) carries both columns and so lands on one shard, where CoalescingMergeTree merges
 *   them and `FINAL` (which the Distributed table runs per shard) is exact. A project's calls
 *   spread over all shards, which is where the volume is. (Weave keys by trace_id, which
 *   Weft's end parts do not carry.) `calls_by_start` and `thread_turns` hold parts of calls
 *   too, by the same key: a thread_turns row merges with the other parts of its call there,
 *   and a backfill from calls, or the materialized views that derive them from each insert
 *   into calls (migration 19), stays on its shard.
 *   `call_file_refs` (the files a call refers to) too, so the row that expires a reference
 *   meets it, and the backfill from calls stays on its shard.
 * - Project-scoped tables: `sipHash64(project_id)`. Their ORDER BY keys start with project_id,
 *   so all versions of a row meet on one shard and `FINAL` stays exact; small next to calls.
 * - `ONE_SHARD` (constant key 0: the first shard): tables without a project, or read across
 *   projects, all tiny. Accounts and sessions (one user's rows must meet for FINAL whatever
 *   column they are read by), prices (the 'default' level is shared by every project), and the
 *   jobs tables. The consensus logs `job_slots` and `monitor_sweeps` (consensus.ts) must never be
 *   spread: a slot is decided by insert deduplication, which only holds inside one table's
 *   window, so every proposal of every slot goes to the same shard (the Distributed insert
 *   forwards the deduplication token; checked in cluster.clickhouse.test.ts). The other jobs
 *   tables stay with them so a claim's joins read one shard's worth of rows. Why not a copy on
 *   every node (a Keeper path without {shard}) instead: without replication (`sharded`) each
 *   node's copy would be a different table, and so a slot decided twice; the first shard's
 *   tables are still replicated within that shard in `replicated-sharded`.
 */
const ONE_SHARD = '0';
const BY_PROJECT = 'sipHash64(project_id)';
/**
 * Tables whose every read gathers its rows from all shards (the stats cells are summed, the
 * dirty hours collected): a view or a backfill may write them on the shard of the call they come
 * from, whatever their own key says.
 */
export const ADDED_UP: ReadonlySet<string> = new Set([
  'call_stats_hours',
  'call_stats_usage_hours',
  'call_stats_dirty',
  'call_stats_starts',
  'call_stats_rows',
]);
export const SHARD_KEYS: Readonly<Record<string, string>> = {
  calls: 'sipHash64(project_id, id)',
  calls_by_start: 'sipHash64(project_id, id)',
  thread_turns: 'sipHash64(project_id, id)',
  call_file_refs: 'sipHash64(project_id, id)',
  // Derived from each insert into calls on its shard (migration 23), like thread_turns.
  thread_touches: 'sipHash64(project_id, id)',
  // Stats cells (migration 24): the loose parts with their calls; the per-hour cells, which reads
  // add up over every shard, wherever a view or a backfill writes them (ADDED_UP).
  call_stats_loose: 'sipHash64(project_id, id)',
  call_stats_hours: BY_PROJECT,
  call_stats_usage_hours: BY_PROJECT,
  call_stats_dirty: BY_PROJECT,
  call_stats_checked: BY_PROJECT,
  // Read through GLOBAL IN and summed over every shard: an id's start rows need not share one.
  call_stats_starts: 'id_hash',
  call_stats_rows: BY_PROJECT,
  // The substring search (migrations 25, 26): the queue is written by a view on each insert into
  // calls on its shard, and the indexer's INSERT ... SELECT of a call's trigram rows reads the
  // call's parts and writes its postings by the same key. Its progress is one value for all.
  call_grams: 'sipHash64(project_id, id)',
  call_search_queue: 'sipHash64(project_id, id)',
  call_search_progress: ONE_SHARD,
  projects: BY_PROJECT,
  table_rows: BY_PROJECT,
  table_entries: BY_PROJECT,
  tables: BY_PROJECT,
  file_chunks: BY_PROJECT,
  files: BY_PROJECT,
  object_file_refs: BY_PROJECT,
  object_versions: BY_PROJECT,
  object_creations: BY_PROJECT,
  object_tags: BY_PROJECT,
  object_aliases: BY_PROJECT,
  feedback: BY_PROJECT,
  annotation_queues: BY_PROJECT,
  annotation_queue_items: BY_PROJECT,
  annotator_progress: BY_PROJECT,
  annotation_item_reservations: BY_PROJECT,
  feedback_superseded: BY_PROJECT,
  model_providers: BY_PROJECT,
  monitor_forgotten: BY_PROJECT,
  alert_rules: BY_PROJECT,
  alert_events: BY_PROJECT,
  // A project's thread snapshots and marks on one shard: every version of a thread's row meets there.
  thread_snapshots: BY_PROJECT,
  thread_snapshot_turns: BY_PROJECT,
  thread_snapshot_marks: BY_PROJECT,
  users: ONE_SHARD,
  user_entities: ONE_SHARD,
  user_roles: ONE_SHARD,
  oidc_identities: ONE_SHARD,
  api_keys: ONE_SHARD,
  sessions: ONE_SHARD,
  accounts_epoch: ONE_SHARD,
  llm_token_prices: ONE_SHARD,
  jobs: ONE_SHARD,
  jobs_open: ONE_SHARD,
  job_slots: ONE_SHARD,
  job_heartbeats: ONE_SHARD,
  job_progress: ONE_SHARD,
  job_cancels: ONE_SHARD,
  monitor_sweeps: ONE_SHARD,
  audit_log: ONE_SHARD,
  redaction_rules: ONE_SHARD,
  retention_rules: ONE_SHARD,
  weft_schema_migrations: ONE_SHARD,
  // The migration lock is a consensus log (migrationLock.ts): never spread, like the job slots.
  weft_migration_lock: ONE_SHARD,
};

/**
 * The Keeper path of a replicated table: per shard, database and table name. Not `{uuid}`:
 * tables created node by node get different UUIDs, and replicas must find each other by path.
 */
const keeperPath = (table: string) => `/clickhouse/tables/{shard}/{database}/${table}`;

const CREATE = /^CREATE TABLE IF NOT EXISTS (\w+)\s*\(/;
const ENGINE = /\)\s*ENGINE\s*=\s*(\w*MergeTree)(?:\(([^)]*)\))?/;
const ALTER = /^ALTER TABLE (\w+)\s+([\s\S]*)$/;
/** ALTER operations a Distributed table takes too (its columns mirror the local table's). */
const COLUMN_OP = /\b(ADD|DROP|MODIFY|RENAME|COMMENT) COLUMN\b/i;
/** ALTER operations only the local table has (Distributed has no indexes, data, mutations or settings). */
const LOCAL_OP = /\b(INDEX|PROJECTION|CONSTRAINT|TTL|SETTING|DELETE|UPDATE|MATERIALIZE)\b/i;

/**
 * One migration statement as the statements to run for a layout (a CREATE becomes two in
 * the sharded layouts: the local table, then its Distributed table). Throws on a statement it
 * does not understand, so a new migration cannot silently skip a layout (the rewriter's unit
 * test runs every migration through every layout).
 */
export function rewriteStatement(sql: string, database: string, settings: ClusterSettings): string[] {
  const { layout, cluster } = settings;
  if (layout === 'single' || !cluster) return [sql];
  const on = settings.onCluster ? ` ON CLUSTER ${cluster}` : '';
  const replicated = layout === 'replicated' || layout === 'replicated-sharded';
  const sharded = layout === 'sharded' || layout === 'replicated-sharded';
  const text = sql.trim();

  const create = CREATE.exec(text);
  if (create) {
    const table = create[1]!;
    const local = sharded ? `${table}_local` : table;
    let out = text.replace(CREATE, `CREATE TABLE IF NOT EXISTS ${local}${on} (`);
    if (replicated) {
      const engine = ENGINE.exec(out);
      if (!engine) throw new Error(`Cannot rewrite the engine of table ${table} for layout ${layout}: ${text.slice(0, 80)}`);
      const args = [`'${keeperPath(local)}'`, "'{replica}'", ...(engine[2]?.trim() ? [engine[2].trim()] : [])];
      out = out.replace(ENGINE, `) ENGINE = Replicated${engine[1]}(${args.join(', ')})`);
      out = out.replace(/\bnon_replicated_deduplication_window\b/g, 'replicated_deduplication_window');
    }
    if (!sharded) return [out];
    const key = SHARD_KEYS[table];
    if (!key) throw new Error(`Table ${table} has no shard key in clusterLayout.ts SHARD_KEYS; say where its rows live`);
    return [
      out,
      `CREATE TABLE IF NOT EXISTS ${table}${on} AS ${local} ENGINE = Distributed('${cluster}', '${database}', '${local}', ${key})`,
    ];
  }

  const alter = ALTER.exec(text);
  if (alter) {
    const [, table, ops] = alter as unknown as [string, string, string];
    if (!sharded) return [`ALTER TABLE ${table}${on} ${ops}`];
    const local = `ALTER TABLE ${table}_local${on} ${ops}`;
    const columns = COLUMN_OP.test(ops);
    const localOnly = LOCAL_OP.test(ops);
    if (columns && localOnly)
      throw new Error(`Split this ALTER into column changes and the rest, for the sharded layouts: ${text.slice(0, 80)}`);
    if (columns) return [local, `ALTER TABLE ${table}${on} ${ops}`];
    if (localOnly) return [local];
  }
  // A materialized view fires on inserts into the table it reads, on the node that stores the
  // block: on a sharded cluster that is the source's local table on each shard (a Distributed
  // insert forwards the block there), and it writes the target's local table beside it. Source
  // and target share a shard key, so the derived rows sit where the target's own key puts them.
  const view = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s+SELECT\b([\s\S]*)\bFROM (\w+)\b([\s\S]*)$/.exec(text);
  if (view) {
    const [, name, target, columns, source, rest] = view as unknown as [string, string, string, string, string, string];
    if ((text.match(/\bFROM\b/g) ?? []).length !== 1)
      throw new Error(`A materialized view must read one table (one FROM) to be placed on a cluster: ${text.slice(0, 80)}`);
    if (SHARD_KEYS[source] !== SHARD_KEYS[target] && !ADDED_UP.has(target))
      throw new Error(`View ${name}: ${source} and ${target} need the same shard key in clusterLayout.ts SHARD_KEYS`);
    const local = (t: string) => (sharded ? `${t}_local` : t);
    return [`CREATE MATERIALIZED VIEW IF NOT EXISTS ${name}${on} TO ${local(target)} AS SELECT${columns}FROM ${local(source)}${rest}`];
  }
  // A backfill names the tables Weft reads and writes, which every layout has. Migrated ON
  // CLUSTER, every node has the new table before this runs, and the one migrating node fills it
  // through the Distributed tables: as written. Migrated node by node (WEFT_CLICKHOUSE_ON_CLUSTER=0),
  // another node may not have its table yet, so each node fills its own shard, local table from
  // local table (a backfill's source and target share a shard key, so rows stay on their shard).
  const backfill = /^INSERT INTO (\w+)(\s*\([\w\s,]*\))? SELECT\b([\s\S]*)\bFROM (\w+)\b([\s\S]*)$/.exec(text);
  if (backfill) {
    if (!sharded || settings.onCluster) return [text];
    const [, target, into = '', columns, source, rest] = backfill as unknown as [
      string,
      string,
      string | undefined,
      string,
      string,
      string,
    ];
    return [`INSERT INTO ${target}_local${into} SELECT${columns}FROM ${source}_local${rest}`];
  }
  throw new Error(
    `The cluster layouts cannot rewrite this statement (only CREATE TABLE IF NOT EXISTS, CREATE MATERIALIZED VIEW IF NOT EXISTS ... TO, ALTER TABLE and INSERT ... SELECT): ${text.slice(0, 80)}`,
  );
}

/**
 * Where a Distributed table's rows are stored: its cluster and local table, as the engine
 * reports them; null for a table of any other engine (one server, or the `replicated` layout).
 * For the statements a Distributed table refuses (a DELETE), which must name the local table.
 */
export async function distributedTarget(db: ClickHouseDatabase, table: string): Promise<{ cluster: string; local: string } | null> {
  const row = await db.get<{ engine: string; engine_full: string }>(
    'SELECT engine, engine_full FROM system.tables WHERE database = currentDatabase() AND name = {t:String}',
    { t: table },
  );
  if (row?.engine !== 'Distributed') return null;
  const m = /^Distributed\(\s*'(\w+)'\s*,\s*'\w*'\s*,\s*'(\w+)'/.exec(row.engine_full);
  if (!m || !IDENTIFIER.test(m[1]!) || !IDENTIFIER.test(m[2]!))
    throw new Error(`Cannot read the cluster and local table of ${table} from its engine: ${row.engine_full}`);
  return { cluster: m[1]!, local: m[2]! };
}
