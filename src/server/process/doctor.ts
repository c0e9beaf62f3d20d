/**
 * `weft doctor`: what this deployment is (version, Node, store, schema, sizes, free disk,
 * settings changed from their defaults) and checks of what the server itself cannot refuse,
 * each printed with what to do. Any warning makes the exit status 1, so a deploy script can stop
 * on it (docs/operations.md "weft doctor"). A check is a function of the context; add one to CHECKS.
 */
import Database from 'better-sqlite3';
import { existsSync, statfsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringLiteral } from '../backup/clickhouseBackup.js';
import { storeConfigOf, type ServerConfig } from '../config.js';
import { readSetting, SETTINGS } from '../settings.js';
import { ClickHouseDatabase, num } from '../store/clickhouse/ClickHouseDatabase.js';
import { appliedVersion } from '../store/clickhouse/migrate.js';
import { LATEST_CLICKHOUSE_VERSION } from '../store/clickhouse/migrations/index.js';
import { clickhouseOptions } from '../store/openStore.js';
import { migrations } from '../store/sqlite/migrations/index.js';
import { WAL_SIZE_LIMIT_BYTES } from '../store/sqlite/walCheckpointer.js';
import { WEFT_VERSION } from '../version.js';

export interface DoctorFinding {
  level: 'ok' | 'warn';
  check: string;
  message: string;
}

/** The oldest Node line Weft supports. */
export const MIN_NODE_MAJOR = 22;
/** Free disk below either bound is "nearly full": a tenth of the disk, or 1 GiB on a large one. */
export const MIN_FREE_FRACTION = 0.1;
export const MIN_FREE_BYTES = 1024 ** 3;
/** Replicas whose clocks differ by more than this are "apart" (call times come from them). */
export const MAX_CLOCK_SPREAD_MS = 1000;

export interface DiskStats {
  bsize: number;
  blocks: number;
  bavail: number;
}

export interface DoctorOptions {
  /** The `weft doctor` flags given, beside the environment in config.env. */
  flags?: Record<string, string>;
  /** fs.statfsSync (tests give a disk of their choosing). */
  statfs?: (path: string) => DiskStats;
  nodeVersion?: string;
  /** Each ClickHouse replica's clock, read by default through clusterAllReplicas. */
  replicaClocks?: (db: ClickHouseDatabase, cluster: string) => Promise<{ host: string; ms: number }[]>;
}

/** What doctor found out, for the checks and the printout. */
export interface DoctorContext {
  config: ServerConfig;
  flags: Record<string, string>;
  nodeVersion: string;
  statfs: (path: string) => DiskStats;
  replicaClocks: NonNullable<DoctorOptions['replicaClocks']>;
  /** The SQLite file, its WAL, their sizes (0 when missing), and its schema version (null: no file). */
  sqlite: { file: string; bytes: number; walBytes: number; schema: number | null } | null;
  /** The ClickHouse connection, or why there is none (unreachable). */
  clickhouse: { db: ClickHouseDatabase; schema: number } | { error: string } | null;
}

type Check = (ctx: DoctorContext) => DoctorFinding | Promise<DoctorFinding>;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * A ClickHouse user without a password lets anything that can send an HTTP request to the
 * engine read and write every tenant's data; a forged request from any service beside it (an
 * SSRF) needs no credentials then (docs/security/outbound.md).
 */
const clickhousePassword: Check = ({ config }) => {
  const check = 'clickhouse-password';
  if (config.store !== 'clickhouse') return { level: 'ok', check, message: 'the SQLite store has no database user' };
  const user = config.clickhouseUser || 'default';
  if (config.clickhousePassword) return { level: 'ok', check, message: `the ClickHouse user "${user}" is given a password` };
  return {
    level: 'warn',
    check,
    message:
      `the ClickHouse user "${user}" has no password (WEFT_CLICKHOUSE_PASSWORD is not set): anything that can reach the engine's HTTP port, ` +
      "including a request forged through another service, can read and change every tenant's data. Give the user a password in " +
      'ClickHouse (users.xml or CREATE USER ... IDENTIFIED BY) and set WEFT_CLICKHOUSE_PASSWORD.',
  };
};

const nodeVersion: Check = ({ nodeVersion }) => {
  const check = 'node-version';
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return { level: 'ok', check, message: `Node ${nodeVersion} is supported (${MIN_NODE_MAJOR} and newer)` };
  return {
    level: 'warn',
    check,
    message: `Node ${nodeVersion} is older than the supported line (${MIN_NODE_MAJOR} and newer) and gets no security fixes: install Node ${MIN_NODE_MAJOR} or a newer LTS.`,
  };
};

/** The nearest existing directory at or above `path` (the data directory may not exist yet). */
function existingDir(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const diskSpace: Check = ({ config, statfs }) => {
  const check = 'disk-space';
  const dir = existingDir(config.dataDir);
  const { bsize, blocks, bavail } = statfs(dir);
  const free = bavail * bsize;
  const fraction = blocks > 0 ? bavail / blocks : 0;
  const said = `${gb(free)} free (${(fraction * 100).toFixed(0)} %) on the filesystem of ${dir}`;
  if (free >= MIN_FREE_BYTES && fraction >= MIN_FREE_FRACTION) return { level: 'ok', check, message: said };
  return {
    level: 'warn',
    check,
    message: `only ${said}: the disk is nearly full (below 10 % or 1 GiB). A full disk stops every write; free space or move the data directory.`,
  };
};

const walSize: Check = ({ sqlite }) => {
  const check = 'wal-size';
  if (!sqlite) return { level: 'ok', check, message: 'ClickHouse keeps no WAL file here' };
  const { bytes, walBytes } = sqlite;
  if (walBytes <= Math.max(bytes, WAL_SIZE_LIMIT_BYTES))
    return { level: 'ok', check, message: `WAL ${mb(walBytes)} beside a ${mb(bytes)} database` };
  return {
    level: 'warn',
    check,
    message:
      `the WAL (${mb(walBytes)}) is larger than the database (${mb(bytes)}) and than ${mb(WAL_SIZE_LIMIT_BYTES)}: checkpoints are not keeping up or ` +
      'a reader holds an old snapshot (a stuck process on the file?). A server cuts it once writes pause; restarting the server checkpoints it.',
  };
};

const schemaVersion: Check = ({ sqlite, clickhouse }) => {
  const check = 'schema';
  if (sqlite) {
    const latest = migrations.at(-1)!.version;
    if (sqlite.schema === null) return { level: 'ok', check, message: 'no database yet: the first start creates it' };
    if (sqlite.schema > latest) {
      return {
        level: 'warn',
        check,
        message: `the database is at schema version ${sqlite.schema}, made by a newer Weft; this one knows up to ${latest}: upgrade Weft.`,
      };
    }
    return {
      level: 'ok',
      check,
      message: `schema version ${sqlite.schema} of ${latest}${sqlite.schema < latest ? ' (upgraded at the next start)' : ''}`,
    };
  }
  if (!clickhouse) return { level: 'ok', check, message: 'no store' };
  if ('error' in clickhouse) return { level: 'warn', check, message: `cannot reach ClickHouse: ${clickhouse.error}` };
  if (clickhouse.schema < LATEST_CLICKHOUSE_VERSION) {
    return {
      level: 'warn',
      check,
      message: `the ClickHouse schema is at version ${clickhouse.schema}, behind this Weft's ${LATEST_CLICKHOUSE_VERSION}: run weft migrate before starting it.`,
    };
  }
  if (clickhouse.schema > LATEST_CLICKHOUSE_VERSION) {
    return {
      level: 'warn',
      check,
      message: `the ClickHouse schema is at version ${clickhouse.schema}, newer than this Weft knows (${LATEST_CLICKHOUSE_VERSION}): upgrade Weft.`,
    };
  }
  return { level: 'ok', check, message: `ClickHouse schema version ${clickhouse.schema} is current` };
};

/** Each replica's clock through clusterAllReplicas: one query, run on every replica at about the same moment. */
async function clusterClocks(db: ClickHouseDatabase, cluster: string): Promise<{ host: string; ms: number }[]> {
  const rows = await db.all<{ host: string; ms: string | number }>(
    `SELECT hostName() AS host, toUnixTimestamp64Milli(now64(3)) AS ms FROM clusterAllReplicas(${stringLiteral(cluster)}, system.one)`,
  );
  return rows.map((r) => ({ host: r.host, ms: num(r.ms) }));
}

const replicaClocks: Check = async ({ config, flags, clickhouse, replicaClocks }) => {
  const check = 'clickhouse-clocks';
  if (config.store !== 'clickhouse') return { level: 'ok', check, message: 'one SQLite file, one clock' };
  const cluster = readSetting('WEFT_CLICKHOUSE_CLUSTER', config.env, flags);
  if (!cluster) return { level: 'ok', check, message: 'not clustered (WEFT_CLICKHOUSE_CLUSTER is not set)' };
  if (!clickhouse || 'error' in clickhouse)
    return { level: 'warn', check, message: 'cannot reach ClickHouse to read its replicas’ clocks' };
  let clocks: { host: string; ms: number }[];
  try {
    clocks = await replicaClocks(clickhouse.db, cluster);
  } catch (err) {
    return { level: 'warn', check, message: `could not read the clocks of cluster "${cluster}": ${(err as Error).message}` };
  }
  const times = clocks.map((c) => c.ms);
  const spread = Math.max(...times) - Math.min(...times);
  const list = clocks.map((c) => `${c.host} ${new Date(c.ms).toISOString()}`).join(', ');
  if (spread <= MAX_CLOCK_SPREAD_MS) return { level: 'ok', check, message: `${clocks.length} replicas within ${spread} ms (${list})` };
  return {
    level: 'warn',
    check,
    message: `the clocks of cluster "${cluster}" are ${spread} ms apart (${list}): run NTP (chrony, systemd-timesyncd) on every replica.`,
  };
};

export const CHECKS: readonly Check[] = [clickhousePassword, nodeVersion, diskSpace, walSize, schemaVersion, replicaClocks];

const SECRET = /PASSWORD|SECRET|API_KEY|TOKEN/;

/** Settings set to something other than their default, secrets masked, as [name, value]. */
export function changedSettings(env: NodeJS.ProcessEnv, flags: Record<string, string> = {}): [string, string][] {
  const out: [string, string][] = [];
  for (const s of SETTINGS) {
    const value = readSetting(s.env, env, flags);
    if (value === undefined) continue;
    // Defaults read "`8420`" or "`1` (on)": the first literal is the value.
    const literal = /^`([^`]*)`/.exec(s.default)?.[1];
    if (literal !== undefined && literal === value) continue;
    out.push([s.env, SECRET.test(s.env) ? '(set, hidden)' : value.replace(/\/\/[^/@]*@/, '//***@')]);
  }
  return out;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The SQLite schema version, read without migrating or writing anything; null when there is no file. */
function sqliteSchema(file: string): number | null {
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

async function gather(config: ServerConfig, options: DoctorOptions): Promise<DoctorContext> {
  const ctx: DoctorContext = {
    config,
    flags: options.flags ?? {},
    nodeVersion: options.nodeVersion ?? process.versions.node,
    statfs: options.statfs ?? statfsSync,
    replicaClocks: options.replicaClocks ?? clusterClocks,
    sqlite: null,
    clickhouse: null,
  };
  if (config.store === 'sqlite') {
    const file = join(config.dataDir, 'weft.sqlite');
    ctx.sqlite = { file, bytes: fileSize(file), walBytes: fileSize(`${file}-wal`), schema: sqliteSchema(file) };
  } else {
    let db: ClickHouseDatabase | null = null;
    try {
      db = new ClickHouseDatabase(clickhouseOptions(storeConfigOf(config)));
      ctx.clickhouse = { db, schema: await appliedVersion(db) };
    } catch (err) {
      await db?.close();
      ctx.clickhouse = { error: (err as Error).message.split('\n')[0]!.trim() };
    }
  }
  return ctx;
}

export interface DoctorReport {
  /** What this deployment is, as [label, value] lines. */
  facts: [string, string][];
  findings: DoctorFinding[];
}

export async function runDoctor(
  config: ServerConfig,
  options: DoctorOptions = {},
  checks: readonly Check[] = CHECKS,
): Promise<DoctorReport> {
  const ctx = await gather(config, options);
  try {
    const facts: [string, string][] = [
      ['version', `Weft ${WEFT_VERSION}`],
      ['node', ctx.nodeVersion],
    ];
    if (ctx.sqlite) {
      facts.push(['store', `sqlite at ${ctx.sqlite.file}`]);
      const latest = migrations.at(-1)!.version;
      facts.push([
        'schema',
        ctx.sqlite.schema === null ? `none yet (this Weft: ${latest})` : `${ctx.sqlite.schema} (this Weft: ${latest})`,
      ]);
      facts.push(['database', mb(ctx.sqlite.bytes)], ['wal', mb(ctx.sqlite.walBytes)]);
    } else {
      facts.push(['store', `clickhouse at ${config.clickhouseUrl ?? '(no URL)'}, database "${config.clickhouseDatabase}"`]);
      const ch = ctx.clickhouse;
      facts.push(['schema', !ch || 'error' in ch ? 'unknown (unreachable)' : `${ch.schema} (this Weft: ${LATEST_CLICKHOUSE_VERSION})`]);
    }
    const dir = existingDir(config.dataDir);
    const disk = ctx.statfs(dir);
    facts.push(['data dir', `${config.dataDir}, ${gb(disk.bavail * disk.bsize)} free of ${gb(disk.blocks * disk.bsize)}`]);
    const changed = changedSettings(config.env, ctx.flags);
    facts.push(['settings', changed.length ? changed.map(([k, v]) => `${k}=${v}`).join(' ') : 'all defaults']);
    const findings: DoctorFinding[] = [];
    for (const check of checks) findings.push(await check(ctx));
    return { facts, findings };
  } finally {
    if (ctx.clickhouse && 'db' in ctx.clickhouse) await ctx.clickhouse.db.close();
  }
}

/** The report as printed: the facts, then one line per check (`ok` or `WARN`). */
export function formatDoctor(report: DoctorReport): string {
  const width = Math.max(...report.facts.map(([k]) => k.length));
  return [
    ...report.facts.map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${v}`),
    '',
    ...report.findings.map((f) => `${f.level === 'ok' ? 'ok  ' : 'WARN'} ${f.check}: ${f.message}`),
  ].join('\n');
}
