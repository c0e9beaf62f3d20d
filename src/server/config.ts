/** Settings, from the environment and `weft serve --flags` (flags win). */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_HASH_LIMITS, type HashLimits } from './auth/hashLimiter.js';
import { SCRYPT_N_RANGE, SCRYPT_PARAMS, scryptParamsWithN, type ScryptParams } from './auth/secrets.js';
import { DEFAULT_THROTTLE_LIMITS, type ThrottleLimits } from './auth/loginThrottle.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './auth/sessions.js';
import { parseOidcConfig, type OidcConfig } from './auth/oidcConfig.js';
import { TrustedProxies } from './http/clientAddress.js';
import { loadLimits, type Limits } from './limits.js';
import { createLogger, parseLogFormat, parseLogLevel, type LogFormat, type LogLevel } from './logger.js';
import { OutboundAllowList } from './outbound/addresses.js';
import type { StoreConfig } from './store/openStore.js';
import type { QuorumMode } from './store/clickhouse/ClickHouseDatabase.js';
import { readSetting } from './settings.js';
import { DEFAULT_BUSY_TIMEOUT_MS, DEFAULT_CLICKHOUSE_CONNECT_TIMEOUT_MS } from './store/storeOutage.js';
import { SMALL_WRITES_MODES, type SmallWritesMode } from './store/clickhouse/groupCommit.js';
import { DEFAULT_SPOOL_FLUSH_MS } from './store/clickhouse/spool.js';
import type { TlsSettings } from './process/tls.js';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  store: 'sqlite' | 'clickhouse';
  clickhouseUrl: string | null;
  /** WEFT_CLICKHOUSE_USER / _PASSWORD / _DATABASE (default user `default`, database `weft`). */
  clickhouseUser: string | null;
  clickhousePassword: string | null;
  clickhouseDatabase: string;
  /** WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS: how long a ClickHouse request waits for a sign of life. */
  clickhouseConnectTimeoutMs?: number;
  /** WEFT_CLICKHOUSE_SMALL_WRITES: how a request's last writes reach ClickHouse (docs/clickhouse.md "Small writes"). */
  clickhouseSmallWrites?: SmallWritesMode;
  /** WEFT_CLICKHOUSE_THREAD_SNAPSHOTS: thread statistics kept between requests (docs/clickhouse.md "Thread snapshots"). */
  clickhouseThreadSnapshots?: boolean;
  /** WEFT_CLICKHOUSE_SPOOL_FLUSH_MS: how long a spooled small write waits for others (docs/clickhouse.md "The spool"). */
  clickhouseSpoolFlushMs?: number;
  /** WEFT_CLICKHOUSE_QUORUM (docs/clickhouse.md "Read-your-writes on a replicated cluster"). */
  clickhouseQuorum?: QuorumMode;
  /** WEFT_CLICKHOUSE_ON_CLUSTER: the audit sweep's DELETE on a sharded cluster, ON CLUSTER or on one node. */
  clickhouseOnCluster?: boolean;
  adminPassword: string | null;
  /** Same as `limits.maxBodyBytes`. */
  maxBodyBytes: number;
  /** What one request may ask of the server (limits.ts; the README table lists them). */
  limits: Limits;
  sqliteSync: 'normal' | 'full';
  sqliteBusyTimeoutMs: number;
  /** Store repeated call content once on SQLite (docs/history-storage.md). */
  historyDedup: 'off' | 'on' | 'all';
  logLevel: LogLevel;
  /** WEFT_LOG_FORMAT, resolved (the default depends on whether stderr is a terminal). */
  logFormat: LogFormat;
  validateResponses: boolean;
  /** Serve the dashboard (built SPA) at `/`. */
  serveDashboard: boolean;
  /** Server processes sharing the port (see cluster.ts); 1 runs in this process. */
  workers: number;
  /** Who may read `/metrics` (WEFT_METRICS; docs/operations/metrics.md). */
  metrics: 'admin' | 'public' | 'off';
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish (WEFT_SHUTDOWN_GRACE_MS; shutdown.ts). */
  shutdownGraceMs: number;
  /** The standard OpenAI SDK variables: either one configures the instance-wide `openai` provider. */
  openaiApiKey: string | null;
  openaiBaseUrl: string | null;
  /** More instance-wide providers (providers/instanceProviders.ts); default `<data dir>/providers.json` when present. */
  providersFile: string | null;
  /** Seals provider keys at rest (auth/secretBox.ts); default: a generated `<data dir>/secret.key`. */
  secret: string | null;
  /** Seconds before an upstream model request is given up. */
  providerTimeoutMs: number;
  /** Background jobs run at once per server process. */
  jobConcurrency: number;
  /** A running job whose heartbeat is older than this lost its process and is resumed (jobs/JobRunner.ts). */
  jobStaleMs: number;
  /** Days the audit log keeps its rows; null: forever (audit/auditSweeper.ts). */
  auditRetentionDays: number | null;
  /** Jobs of one project running at once across every process (WEFT_JOB_PROJECT_CONCURRENCY; jobs/JobRunner.ts). */
  jobProjectConcurrency: number;
  /** Jobs of one project queued or running; past it an enqueue answers 429 (WEFT_JOB_PROJECT_QUEUE). */
  jobProjectQueue: number;
  /** Claims of one job, the first included, before a job whose process died is failed instead of resumed. */
  jobMaxAttempts: number;
  /** How often ended calls are checked against the monitors (WEFT_MONITOR_POLL_MS). */
  monitorPollMs: number;
  /** How often the retention sweep runs, in ms (WEFT_RETENTION_SWEEP_SECONDS; docs/operations/retention.md). */
  retentionSweepMs: number;
  /** The whole environment, for `api_key_env` in the providers file. */
  env: NodeJS.ProcessEnv;
  /** Failed sign-ins allowed per username / per client address in the window (auth/loginThrottle.ts). */
  loginThrottle: ThrottleLimits;
  /** Password hashes computed at once, and allowed to wait (auth/hashLimiter.ts). */
  hashLimits: HashLimits;
  /** Parameters of new password hashes: OWASP's, N from WEFT_PASSWORD_SCRYPT_N (auth/secrets.ts). */
  scrypt: ScryptParams;
  /** Dashboard session lifetimes and cookie security (auth/sessions.ts). */
  sessions: SessionLimits;
  /** Serve HTTPS (tls.ts): the given certificate and key, or a generated self-signed one; null serves HTTP. */
  tls: TlsSettings | null;
  /**
   * Request threads (threads/requestThreads.ts), on by default: the read and write pool sizes
   * and the reads' time budget; null serves every request on the main thread (`WEFT_THREADS=0`).
   */
  threads: {
    read: number;
    write: number;
    readBudgetMs: number;
    /** Milliseconds a streamed answer may wait for its client to take more before it is cut (WEFT_READ_SEND_TIMEOUT_MS). */
    sendTimeoutMs: number;
    /** Read threads one user may hold at once (WEFT_READS_PER_USER). */
    readsPerUser: number;
  } | null;
  /** Peers whose X-Forwarded-For names the client (http/clientAddress.ts); default none. */
  trustedProxies: TrustedProxies;
  /**
   * The URL people reach this server at (WEFT_PUBLIC_URL, without a trailing `/`), which GraphQL
   * `serverInfo.frontendHost` answers; null: the address it listens on (main.ts).
   */
  publicUrl: string | null;
  /** Non-public destinations instance providers and admins' providers may reach (WEFT_OUTBOUND_ALLOW; outbound/). */
  outboundAllow: OutboundAllowList;
  /** Single sign-on with an OpenID Connect issuer (WEFT_OIDC_*; docs/security/sso.md); null when not configured. */
  oidc: OidcConfig | null;
}

/**
 * Read threads by default: one per core, at least 2 (one long read must not hold up every
 * other) and at most 4 (each thread is a V8 isolate with its own SQLite page cache, ~40 MB).
 */
export const defaultReadThreads = (cores = availableParallelism()): number => Math.max(2, Math.min(4, cores));
/** Write threads by default: one parses while the writer writes; a second only with cores to spare. */
export const defaultWriteThreads = (cores = availableParallelism()): number => Math.max(1, Math.min(2, cores - 1));

function smallWritesMode(value: string | undefined): SmallWritesMode {
  if (value === undefined || value === '') return 'group';
  if ((SMALL_WRITES_MODES as readonly string[]).includes(value)) return value as SmallWritesMode;
  throw new Error(`WEFT_CLICKHOUSE_SMALL_WRITES must be one of ${SMALL_WRITES_MODES.join(', ')}, not "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string> = {}): ServerConfig {
  // Every read goes through the settings table, which refuses a name it does not list.
  const get = (name: string) => readSetting(name, env, flags);
  const store = get('WEFT_STORE') ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'clickhouse') throw new Error(`WEFT_STORE must be "sqlite" or "clickhouse", not "${store}"`);
  const port = Number(get('PORT') ?? 8420);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${get('PORT')}"`);
  const limits = loadLimits(env, flags);
  return {
    host: get('HOST') ?? '127.0.0.1',
    port,
    dataDir: resolve(get('WEFT_DATA_DIR') ?? './.weft'),
    store,
    clickhouseUrl: get('WEFT_CLICKHOUSE_URL') ?? null,
    clickhouseUser: get('WEFT_CLICKHOUSE_USER') ?? null,
    clickhousePassword: get('WEFT_CLICKHOUSE_PASSWORD') ?? null,
    clickhouseDatabase: get('WEFT_CLICKHOUSE_DATABASE') || 'weft',
    clickhouseConnectTimeoutMs: positive(
      'WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS',
      get('WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS'),
      DEFAULT_CLICKHOUSE_CONNECT_TIMEOUT_MS,
    ),
    clickhouseSmallWrites: smallWritesMode(get('WEFT_CLICKHOUSE_SMALL_WRITES')),
    clickhouseThreadSnapshots: !['0', 'false', 'off'].includes(get('WEFT_CLICKHOUSE_THREAD_SNAPSHOTS') ?? ''),
    clickhouseSpoolFlushMs: positive('WEFT_CLICKHOUSE_SPOOL_FLUSH_MS', get('WEFT_CLICKHOUSE_SPOOL_FLUSH_MS'), DEFAULT_SPOOL_FLUSH_MS),
    clickhouseQuorum: quorumMode(get('WEFT_CLICKHOUSE_QUORUM')),
    clickhouseOnCluster: onCluster(get('WEFT_CLICKHOUSE_ON_CLUSTER')),
    adminPassword: get('WEFT_ADMIN_PASSWORD') ?? null,
    maxBodyBytes: limits.maxBodyBytes,
    limits,
    sqliteSync: get('WEFT_SQLITE_SYNC') === 'full' ? 'full' : 'normal',
    sqliteBusyTimeoutMs: positive('WEFT_SQLITE_BUSY_TIMEOUT_MS', get('WEFT_SQLITE_BUSY_TIMEOUT_MS'), DEFAULT_BUSY_TIMEOUT_MS),
    historyDedup: historyDedupMode(get('WEFT_HISTORY_DEDUP')),
    logLevel: parseLogLevel(get('WEFT_LOG_LEVEL')),
    logFormat: parseLogFormat(get('WEFT_LOG_FORMAT')),
    validateResponses: get('WEFT_VALIDATE_RESPONSES') === '1',
    serveDashboard: get('WEFT_NO_DASHBOARD') !== '1',
    workers: parseWorkers(get('WEFT_WORKERS')),
    metrics: parseMetricsAccess(get('WEFT_METRICS')),
    shutdownGraceMs: positiveInt(get, 'WEFT_SHUTDOWN_GRACE_MS', 10_000, 0),
    openaiApiKey: get('OPENAI_API_KEY') || null,
    openaiBaseUrl: get('OPENAI_BASE_URL') || null,
    providersFile: get('WEFT_PROVIDERS_FILE') ? resolve(get('WEFT_PROVIDERS_FILE')!) : null,
    secret: get('WEFT_SECRET') || null,
    providerTimeoutMs: positive('WEFT_PROVIDER_TIMEOUT_MS', get('WEFT_PROVIDER_TIMEOUT_MS'), 120_000),
    jobConcurrency: positive('WEFT_JOB_CONCURRENCY', get('WEFT_JOB_CONCURRENCY'), 2),
    jobStaleMs: positive('WEFT_JOB_STALE_MS', get('WEFT_JOB_STALE_MS'), 30_000),
    auditRetentionDays: get('WEFT_AUDIT_RETENTION_DAYS') ? positiveInt(get, 'WEFT_AUDIT_RETENTION_DAYS', 0) : null,
    jobProjectConcurrency: positiveInt(get, 'WEFT_JOB_PROJECT_CONCURRENCY', 1),
    jobProjectQueue: positiveInt(get, 'WEFT_JOB_PROJECT_QUEUE', 100),
    jobMaxAttempts: positiveInt(get, 'WEFT_JOB_MAX_ATTEMPTS', 2),
    monitorPollMs: positive('WEFT_MONITOR_POLL_MS', get('WEFT_MONITOR_POLL_MS'), 1000),
    retentionSweepMs: 1000 * positiveInt(get, 'WEFT_RETENTION_SWEEP_SECONDS', 60),
    env,
    loginThrottle: {
      perUser: positiveInt(get, 'WEFT_LOGIN_MAX_FAILURES_PER_USER', DEFAULT_THROTTLE_LIMITS.perUser),
      perAddress: positiveInt(get, 'WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS', DEFAULT_THROTTLE_LIMITS.perAddress),
      windowSeconds: positiveInt(get, 'WEFT_LOGIN_WINDOW_SECONDS', DEFAULT_THROTTLE_LIMITS.windowSeconds),
    },
    hashLimits: {
      concurrency: positiveInt(get, 'WEFT_MAX_CONCURRENT_HASHES', DEFAULT_HASH_LIMITS.concurrency),
      queue: positiveInt(get, 'WEFT_HASH_QUEUE', DEFAULT_HASH_LIMITS.queue, 0),
    },
    scrypt: scryptParamsWithN(scryptN(get('WEFT_PASSWORD_SCRYPT_N'))),
    sessions: {
      idleSeconds: positiveInt(get, 'WEFT_SESSION_IDLE_SECONDS', DEFAULT_SESSION_LIMITS.idleSeconds),
      maxAgeSeconds: positiveInt(get, 'WEFT_SESSION_MAX_AGE_SECONDS', DEFAULT_SESSION_LIMITS.maxAgeSeconds),
      secureCookies: parseSecureCookies(get('WEFT_SECURE_COOKIES')),
    },
    tls: parseTls(get('WEFT_TLS'), get('WEFT_TLS_CERT'), get('WEFT_TLS_KEY')),
    // Request threads are the default (WEFT_THREADS=0 turns them off): only in threads can a read
    // be given a time budget and be stopped when its client leaves (better-sqlite3 cannot be
    // interrupted on the thread that runs it), and only there does /health never wait for SQLite.
    threads: isOff(get('WEFT_THREADS'))
      ? null
      : {
          read: count(get('WEFT_READ_THREADS'), defaultReadThreads(), 'WEFT_READ_THREADS'),
          write: count(get('WEFT_WRITE_THREADS'), defaultWriteThreads(), 'WEFT_WRITE_THREADS'),
          readBudgetMs: budget(get('WEFT_READ_BUDGET_MS')),
          sendTimeoutMs: positiveInt(get, 'WEFT_READ_SEND_TIMEOUT_MS', 30_000),
          // One fewer than the read threads by default, so one user never holds them all.
          readsPerUser: positiveInt(
            get,
            'WEFT_READS_PER_USER',
            Math.max(1, count(get('WEFT_READ_THREADS'), defaultReadThreads(), 'WEFT_READ_THREADS') - 1),
          ),
        },
    trustedProxies: trustedProxies(get('WEFT_TRUSTED_PROXIES')),
    publicUrl: publicUrl(get('WEFT_PUBLIC_URL')),
    outboundAllow: OutboundAllowList.parse(get('WEFT_OUTBOUND_ALLOW')),
    oidc: parseOidcConfig(get),
  };
}

/** An http(s) URL with no query or fragment, as its origin and path without the trailing `/`. */
function publicUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Answered below.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new Error(`WEFT_PUBLIC_URL / --public-url must be an http(s) URL such as https://weft.example.com, not "${value}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A whole number ≥ `min` from a setting, or the default when unset. */
function positiveInt(get: (name: string) => string | undefined, name: string, fallback: number, min = 1): number {
  const value = get(name);
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, not "${value}"`);
  return n;
}

/** A power of two in SCRYPT_N_RANGE, or OWASP's N when unset. */
function scryptN(value: string | undefined): number {
  if (value === undefined || value === '') return SCRYPT_PARAMS.N;
  const n = Number(value);
  const { min, max } = SCRYPT_N_RANGE;
  if (!Number.isInteger(n) || n < min || n > max || (n & (n - 1)) !== 0) {
    throw new Error(`WEFT_PASSWORD_SCRYPT_N must be a power of two from ${min} to ${max}, not "${value}"`);
  }
  return n;
}

function parseSecureCookies(value: string | undefined): 'auto' | 'always' {
  if (value === undefined || value === '' || value === 'auto') return 'auto';
  if (value === 'always') return 'always';
  throw new Error(`WEFT_SECURE_COOKIES must be "auto" (Secure over https) or "always", not "${value}"`);
}

const isOn = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== '0' && v !== 'false';

/** WEFT_THREADS / --threads: `0`, `false` or `off` turn threads off; unset or anything else leaves them on. */
function isOff(v: string | undefined): boolean {
  if (v === undefined || v === '') return false;
  if (v === '0' || v === 'false' || v === 'off') return true;
  if (v === '1' || v === 'true' || v === 'on') return false;
  throw new Error(`WEFT_THREADS / --threads must be 1 (request threads, the default) or 0 (every request on the main thread), not "${v}"`);
}

function trustedProxies(value: string | undefined): TrustedProxies {
  try {
    return TrustedProxies.parse(value);
  } catch (err) {
    throw new Error(`WEFT_TRUSTED_PROXIES / --trusted-proxies: ${(err as Error).message}; give addresses or CIDR ranges, comma-separated`, {
      cause: err,
    });
  }
}

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, not "${value}"`);
  return n;
}

/** Milliseconds a read may run (30 s by default); 0 turns the budget off. */
function budget(value: string | undefined): number {
  if (value === undefined || value === '') return 30_000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`WEFT_READ_BUDGET_MS must be a whole number of milliseconds ≥ 0, not "${value}"`);
  return n;
}

/** `--tls` / WEFT_TLS=1 turns HTTPS on; giving a certificate or key file implies it. */
function parseTls(on: string | undefined, certFile: string | undefined, keyFile: string | undefined): TlsSettings | null {
  const enabled = isOn(on);
  if (!enabled && !certFile && !keyFile) return null;
  if (Boolean(certFile) !== Boolean(keyFile))
    throw new Error('give both --tls-cert and --tls-key (WEFT_TLS_CERT, WEFT_TLS_KEY), or neither to generate a certificate');
  return { certFile: certFile ? resolve(certFile) : null, keyFile: keyFile ? resolve(keyFile) : null };
}

/** `auto` means one process per CPU core (at most 8); a number is taken as is. */
function parseWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return Math.min(8, availableParallelism());
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WEFT_WORKERS / --workers must be a whole number ≥ 1 or "auto", not "${value}"`);
  return n;
}

function quorumMode(value: string | undefined): QuorumMode {
  if (value === undefined || value === '') return 'auto';
  if (value === 'auto' || value === 'on' || value === 'off') return value;
  throw new Error(`WEFT_CLICKHOUSE_QUORUM must be auto, on or off, not "${value}"`);
}

function onCluster(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '1') return true;
  if (value === '0') return false;
  throw new Error(`WEFT_CLICKHOUSE_ON_CLUSTER must be 0 or 1, not "${value}"`);
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, not "${value}"`);
  return n;
}

/** The store settings of a server config, for `openStore` and `weft migrate`. */
export function storeConfigOf(config: ServerConfig): StoreConfig {
  return {
    kind: config.store,
    dataDir: config.dataDir,
    sqliteSync: config.sqliteSync,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    historyDedup: config.historyDedup,
    clickhouseUrl: config.clickhouseUrl,
    clickhouseUser: config.clickhouseUser,
    clickhousePassword: config.clickhousePassword,
    clickhouseDatabase: config.clickhouseDatabase,
    clickhouseConnectTimeoutMs: config.clickhouseConnectTimeoutMs,
    clickhouseSmallWrites: config.clickhouseSmallWrites,
    clickhouseThreadSnapshots: config.clickhouseThreadSnapshots,
    clickhouseSpoolFlushMs: config.clickhouseSpoolFlushMs,
    clickhouseQuorum: config.clickhouseQuorum,
    clickhouseOnCluster: config.clickhouseOnCluster,
    // Every command that opens the store (serve, user, key) may be the first to open an old file.
    progress: (message) => createLogger(config.logLevel, { format: config.logFormat }).info(message),
  };
}

function parseMetricsAccess(value: string | undefined): ServerConfig['metrics'] {
  if (value === undefined || value === '' || value === 'admin') return 'admin';
  if (value === 'public' || value === 'off') return value;
  throw new Error(`WEFT_METRICS must be "admin", "public" or "off", not "${value}"`);
}

/** `WEFT_HISTORY_DEDUP`: `1` (default), `0`, or `all` (every piece however short: for tests). */
function historyDedupMode(value: string | undefined): 'off' | 'on' | 'all' {
  if (value === undefined || value === '' || value === '1') return 'on';
  if (value === '0') return 'off';
  if (value === 'all') return 'all';
  throw new Error(`WEFT_HISTORY_DEDUP must be 1, 0 or all, not "${value}"`);
}
