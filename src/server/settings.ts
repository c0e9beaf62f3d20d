/**
 * Every setting the server reads, once: loadConfig reads them through `setting()`, which refuses a
 * name missing here; `weft serve --help` and its flags, and docs/configuration.md (written by
 * `npm run docs:settings`), are made from this table. settings.test.ts checks all three.
 */
import { LIMIT_SPECS } from './limits.js';

export type SettingGroup =
  | 'Server'
  | 'TLS'
  | 'Request threads'
  | 'Request limits'
  | 'Sign-in, sessions and cookies'
  | 'Single sign-on (OpenID Connect)'
  | 'Model providers, jobs and monitors'
  | 'Retention'
  | 'ClickHouse'
  | 'Other commands';

export interface Setting {
  group: SettingGroup;
  /** The environment variable. */
  env: string;
  /** The `weft serve` flag (without `--`); none: environment only (secrets, rarely set ones). */
  flag?: string;
  /** The default, as a person reads it (Markdown). */
  default: string;
  /** What it does (Markdown, one paragraph). */
  doc: string;
}

const OWN_SETTINGS: readonly Setting[] = [
  { group: 'Server', env: 'PORT', flag: 'port', default: '`8420`', doc: 'port to listen on (0: any free port)' },
  { group: 'Server', env: 'HOST', flag: 'host', default: '`127.0.0.1`', doc: 'interface to bind (`0.0.0.0` to expose it)' },
  {
    group: 'Server',
    env: 'WEFT_DATA_DIR',
    flag: 'data-dir',
    default: '`./.weft`',
    doc: 'the data directory: the SQLite file, the TLS certificate, `secret.key`, `providers.json`',
  },
  {
    group: 'Server',
    env: 'WEFT_ADMIN_PASSWORD',
    default: 'generated and printed once',
    doc: 'password of `admin`; on SQLite, setting it resets it at each start. On ClickHouse it is required for the first start and sets only the first password ([clickhouse.md](clickhouse.md) "Several replicas")',
  },
  {
    group: 'Server',
    env: 'WEFT_LOG_LEVEL',
    flag: 'log-level',
    default: '`info`',
    doc: '`debug`, `info`, `warn`, `error` or `silent` (anything else: `info`)',
  },
  {
    group: 'Server',
    env: 'WEFT_LOG_FORMAT',
    flag: 'log-format',
    default: '`pretty` on a terminal, else `json`',
    doc: '`json`: one JSON object per line on stderr, for a log collector; `pretty`: readable text ([operations/logs.md](operations/logs.md))',
  },
  {
    group: 'Server',
    env: 'WEFT_METRICS',
    default: '`admin`',
    doc: "who may read `GET /metrics` (Prometheus): `admin` (an instance admin's API key or password), `public` (anyone: for a scraper on a private network) or `off` (no endpoint, nothing counted) ([operations/metrics.md](operations/metrics.md))",
  },
  {
    group: 'Server',
    env: 'WEFT_SHUTDOWN_GRACE_MS',
    default: '`10000`',
    doc: 'on SIGTERM or SIGINT, how long requests in flight may take to finish before their connections are closed; new requests meanwhile answer 503 ([operations/shutdown-and-readiness.md](operations/shutdown-and-readiness.md))',
  },
  { group: 'Server', env: 'WEFT_SQLITE_SYNC', default: '`normal`', doc: '`full` also survives power loss, not only a crash' },
  {
    group: 'Server',
    env: 'WEFT_SQLITE_BUSY_TIMEOUT_MS',
    default: '`5000`',
    doc: 'SQLite: how long a write waits for a lock another process holds (a backup tool, a `sqlite3` shell) before it answers 503 with `Retry-After`',
  },
  {
    group: 'Server',
    env: 'WEFT_HISTORY_DEDUP',
    default: '`1`',
    doc: 'SQLite: store repeated call content (message histories, long strings, base64 media) once, content-addressed; `0` stores each call as sent; `all` takes out every string and array however short (slower: what tests use). Reads answer the same either way ([history-storage.md](history-storage.md))',
  },
  {
    group: 'Server',
    env: 'WEFT_WORKERS',
    flag: 'workers',
    default: '`1`',
    doc: 'server processes sharing the port and the SQLite file; `auto` = one per core, at most 8 ([request-threads.md](request-threads.md) "Scaling out on SQLite")',
  },
  {
    group: 'Server',
    env: 'WEFT_OUTBOUND_ALLOW',
    flag: 'outbound-allow',
    default: 'none',
    doc: 'non-public addresses the server may fetch for model providers (addresses, CIDR ranges or host names, each with an optional `:port`, comma-separated), e.g. `127.0.0.1:11434` for a local Ollama. Used by instance providers and by project providers an admin points at an entry; everything else reaches public addresses only ([security/outbound.md](security/outbound.md))',
  },
  {
    group: 'Server',
    env: 'WEFT_PUBLIC_URL',
    flag: 'public-url',
    default: 'the listen address',
    doc: "the URL people reach Weft at (behind a proxy, or bound to `0.0.0.0`); the W&B GraphQL `serverInfo.frontendHost` answers it, never the request's `Host` header",
  },
  {
    group: 'Server',
    env: 'WEFT_TRUSTED_PROXIES',
    flag: 'trusted-proxies',
    default: 'none',
    doc: 'reverse proxies (addresses or CIDR ranges, comma-separated) whose `X-Forwarded-For` is believed: the rightmost untrusted hop is then the client address for the login throttle and session records. Otherwise the header is ignored, since any client can send it',
  },
  { group: 'Server', env: 'WEFT_NO_DASHBOARD', default: 'unset', doc: '`1`: serve the API only, not the dashboard (tests and benchmarks)' },
  { group: 'Server', env: 'WEFT_VALIDATE_RESPONSES', default: 'unset', doc: '`1`: check every response against the contract (tests)' },
  {
    group: 'TLS',
    env: 'WEFT_TLS',
    flag: 'tls',
    default: 'off',
    doc: '`1` serves HTTPS; without certificate files, with a self-signed certificate generated into `<data dir>/tls/` and reused ([operations.md](operations.md) "TLS")',
  },
  {
    group: 'TLS',
    env: 'WEFT_TLS_CERT',
    flag: 'tls-cert',
    default: 'none',
    doc: 'certificate file (PEM); implies TLS; give it with the key',
  },
  { group: 'TLS', env: 'WEFT_TLS_KEY', flag: 'tls-key', default: 'none', doc: 'private key file (PEM)' },
  {
    group: 'Request threads',
    env: 'WEFT_THREADS',
    flag: 'threads',
    default: '`1` (on)',
    doc: '`0` (or `false`, `off`) serves every request on the main thread: no time budget, no stop on disconnect',
  },
  {
    group: 'Request threads',
    env: 'WEFT_READ_THREADS',
    flag: 'read-threads',
    default: 'cores, within 2–4',
    doc: 'threads serving reads, one request at a time each, started as needed (each is a V8 isolate with its own SQLite page cache, ~40 MB)',
  },
  {
    group: 'Request threads',
    env: 'WEFT_WRITE_THREADS',
    flag: 'write-threads',
    default: 'cores − 1, within 1–2',
    doc: 'threads parsing and validating writes, many at a time; their writes are committed together by the main thread',
  },
  {
    group: 'Request threads',
    env: 'WEFT_READ_BUDGET_MS',
    flag: 'read-budget-ms',
    default: '`30000`',
    doc: 'time a read may run on its thread (for a stream: each wait for its next rows); past it, 504. The wait for a free read thread has the same bound: past it, 503 with `Retry-After`. `0` = no budget',
  },
  {
    group: 'Request threads',
    env: 'WEFT_READ_SEND_TIMEOUT_MS',
    default: '`30000`',
    doc: 'time a streamed answer may wait for its client to take more bytes; past it the connection is cut and the read thread freed',
  },
  {
    group: 'Request threads',
    env: 'WEFT_READS_PER_USER',
    default: 'read threads − 1 (≥ 1)',
    doc: 'read threads one user (API key or password user, dashboard session, else address) may hold at once; further reads of that user wait, and past `WEFT_READ_BUDGET_MS` answer `429` + `Retry-After`',
  },
  {
    group: 'Request threads',
    env: 'WEFT_THREAD_NODE_ARGS',
    default: 'none',
    doc: 'Node flags for the threads, space-separated (e.g. `--cpu-prof`)',
  },
  {
    group: 'Request threads',
    env: 'WEFT_THREADS_FROM_BUILD',
    default: '`0`',
    doc: 'running from the TypeScript sources (`weft dev`, tests): `1` runs the threads from build/server/ (`npm run build`) instead of compiling the sources in each thread; the tests do',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_LOGIN_MAX_FAILURES_PER_USER',
    default: '`10`',
    doc: 'failed sign-ins for one user name within the window before it gets 429',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_LOGIN_MAX_FAILURES_PER_ADDRESS',
    default: '`100`',
    doc: 'failed sign-ins (or wrong API keys) from one client address within the window before it gets 429',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_LOGIN_WINDOW_SECONDS',
    default: '`900`',
    doc: 'the sliding window those failures are counted in',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_MAX_CONCURRENT_HASHES',
    default: '`2`',
    doc: 'password hashes computed at once (128 MiB each)',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_HASH_QUEUE',
    default: '`8`',
    doc: 'password hashes allowed to wait for a slot (0 allowed); beyond it, 503 with `Retry-After`',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_PASSWORD_SCRYPT_N',
    default: '`131072` (2^17, OWASP)',
    doc: 'scrypt\'s cost N for new password hashes, a power of two from 1024 to 1048576 (memory per hash: N KiB); a hash made at another N is replaced at its next sign-in. Lower it only for tests, which use 1024 ([operations.md](operations.md) "Security")',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_SESSION_IDLE_SECONDS',
    default: '`604800` (7 d)',
    doc: 'a dashboard session unused this long ends',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_SESSION_MAX_AGE_SECONDS',
    default: '`2592000` (30 d)',
    doc: 'a dashboard session ends this long after sign-in, however busy',
  },
  {
    group: 'Sign-in, sessions and cookies',
    env: 'WEFT_SECURE_COOKIES',
    default: '`auto`',
    doc: '`auto`: the session cookie is `Secure` when the request came over https; `always`: also over http (TLS ended by a proxy in front)',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_ISSUER',
    default: 'unset (no single sign-on)',
    doc: 'the OpenID Connect issuer URL (its `/.well-known/openid-configuration` is read at start); with the client id and secret it adds "Sign in with …" to the login page. `https` only, except for a loopback issuer (`127.0.0.1`, `::1`, `localhost`) ([security/sso.md](security/sso.md))',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_CLIENT_ID',
    default: 'unset',
    doc: 'the client id registered at the issuer for Weft',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_CLIENT_SECRET',
    default: 'unset',
    doc: 'the client secret (sent with HTTP Basic to the token endpoint); unset: a public client, PKCE only',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_NAME',
    default: "the issuer's host name",
    doc: 'what the login button says: "Sign in with <name>"',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_SCOPES',
    default: '`openid email profile`',
    doc: 'the scopes asked for, space-separated; must include `openid`',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_REDIRECT_BASE',
    default: '`WEFT_PUBLIC_URL`, else the listen address',
    doc: 'the URL the issuer sends people back to, without the path: register `<base>/weft/oidc/callback` at the issuer',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_ROLES_CLAIM',
    default: 'unset (no mapping)',
    doc: 'the ID token claim (a list of strings, or one string) mapped to memberships by `WEFT_OIDC_ROLE_MAP`, e.g. `groups`',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_ROLE_MAP',
    default: 'unset',
    doc: 'claim values to memberships: `value=entity:role` or `value=entity/project:role`, comma-separated (`;` when a value holds commas), e.g. `acme-admins=acme:admin,acme-dev=acme:member`; applied at every sign-in ([security/sso.md](security/sso.md) "Claim mapping")',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_LINK_BY_EMAIL',
    default: '`0`',
    doc: '`1`: a first sign-in joins the existing Weft user whose email is the same verified address (one an administrator recorded with `weft user email`, or another issuer verified)',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_ONLY',
    default: '`0`',
    doc: '`1`: password sign-in (the login form and Basic `user:password`) is refused for everyone but the break-glass users; API keys keep working',
  },
  {
    group: 'Single sign-on (OpenID Connect)',
    env: 'WEFT_OIDC_BREAK_GLASS',
    default: '`admin`',
    doc: 'with `WEFT_OIDC_ONLY=1`, the usernames (comma-separated) still allowed to sign in with a password',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'OPENAI_API_KEY',
    default: 'unset',
    doc: 'the standard OpenAI SDK variables: either one makes an instance-wide provider named `openai` ([operations.md](operations.md) "Model providers")',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'OPENAI_BASE_URL',
    default: 'unset',
    doc: 'the standard OpenAI SDK variables: either one makes an instance-wide provider named `openai` ([operations.md](operations.md) "Model providers")',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_PROVIDERS_FILE',
    default: '`<data dir>/providers.json` when it exists',
    doc: 'more instance-wide providers, as JSON',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_SECRET',
    default: 'a key generated once into `<data dir>/secret.key` (mode 0600)',
    doc: 'seals provider keys at rest (AES-256-GCM); give every replica the same one',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_PROVIDER_TIMEOUT_MS',
    default: '`120000`',
    doc: 'an upstream model request is given up after this long, reported as a message',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_JOB_CONCURRENCY',
    default: '`2`',
    doc: 'background jobs run at once per server process',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_JOB_PROJECT_CONCURRENCY',
    default: '`1`',
    doc: 'background jobs of one project running at once (all processes together); claims go to the entity, then the project, running the fewest ([security/bounded-work.md](security/bounded-work.md))',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_JOB_PROJECT_QUEUE',
    default: '`100`',
    doc: 'background jobs of one project queued or running; past it, 429 with `Retry-After`',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_JOB_MAX_ATTEMPTS',
    default: '`2`',
    doc: 'claims of a job before one whose server died (crash or kill) is failed instead of resumed',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_JOB_STALE_MS',
    default: '`30000`',
    doc: 'a running job whose heartbeat is older than this lost its process and is resumed',
  },
  {
    group: 'Model providers, jobs and monitors',
    env: 'WEFT_MONITOR_POLL_MS',
    default: '`1000`',
    doc: 'how often ended calls are checked against the active monitors while calls end; idle, the wait doubles up to 30 times this, and calls ended on the process wake it',
  },
  {
    group: 'Server',
    env: 'WEFT_AUDIT_RETENTION_DAYS',
    default: 'unset: kept forever',
    doc: 'days the audit log keeps its rows; older ones are dropped by an hourly sweep, and `weft audit verify` then checks the chain from the oldest row kept ([security/audit.md](security/audit.md))',
  },
  {
    group: 'Retention',
    env: 'WEFT_RETENTION_SWEEP_SECONDS',
    default: '`60`',
    doc: 'how often calls past their retention rule are deleted ([operations/retention.md](operations/retention.md))',
  },
  { group: 'ClickHouse', env: 'WEFT_STORE', flag: 'store', default: '`sqlite`', doc: '`clickhouse` to use ClickHouse instead of SQLite' },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_URL',
    flag: 'clickhouse-url',
    default: 'none',
    doc: 'the HTTP interface, e.g. `http://127.0.0.1:8123`',
  },
  { group: 'ClickHouse', env: 'WEFT_CLICKHOUSE_USER', flag: 'clickhouse-user', default: '`default`', doc: '' },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_PASSWORD',
    default: 'empty',
    doc: 'environment only, never a flag (command lines are visible to other users); set one ([clickhouse.md](clickhouse.md#give-the-clickhouse-user-a-password))',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_DATABASE',
    flag: 'clickhouse-database',
    default: '`weft`',
    doc: 'created by `weft migrate`',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS',
    default: '`3000`',
    doc: 'how long a request to ClickHouse waits for an answer before the engine is pinged; when the ping gets none within this either (engine stopped, frozen, unreachable), the request is answered 503 with `Retry-After`. Queries on an engine that answers its ping run on, up to 50 s ([operations/shutdown-and-readiness.md](operations/shutdown-and-readiness.md#clickhouse-outages))',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_SMALL_WRITES',
    default: '`group`',
    doc: "how the writes of small requests (a call start or end, a prediction, a score, feedback) reach ClickHouse: `group` merges concurrent requests' into one INSERT per table in the server, `spool` acknowledges them from a local file in WEFT_DATA_DIR and sends them in batches (this server reads its own writes; other replicas see them within the flush interval), `async` leaves it to ClickHouse (`async_insert` with `wait_for_async_insert=1`), `direct` sends each request's own. Each answers only once its rows are stored, in ClickHouse or in the spool file ([clickhouse.md](clickhouse.md#small-writes))",
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_THREAD_SNAPSHOTS',
    default: '`1`',
    doc: "`1` keeps each thread's statistics between requests, so a threads page reads a snapshot instead of every turn (exact: the threads written since are computed from their turns); `0` computes every thread from its turns on every request ([clickhouse.md](clickhouse.md#thread-snapshots))",
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_SPOOL_FLUSH_MS',
    default: '`100`',
    doc: 'with `WEFT_CLICKHOUSE_SMALL_WRITES=spool`: how long a spooled write waits for others before their INSERT, so the most another replica lags behind this one ([clickhouse.md](clickhouse.md#the-spool))',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_LAYOUT',
    flag: 'clickhouse-layout',
    default: '`single`',
    doc: '`weft migrate` only: `single`, `replicated`, `sharded` or `replicated-sharded`',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_CLUSTER',
    flag: 'clickhouse-cluster',
    default: 'none',
    doc: "`weft migrate` only: the cluster's name in `remote_servers`; required by every layout but `single`",
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_ON_CLUSTER',
    flag: 'clickhouse-on-cluster',
    default: '`1`',
    doc: '`weft migrate`: `1` runs the DDL `ON CLUSTER`; `0` applies it to the one node (run it once per node). The server: how the audit sweep deletes on a sharded cluster (`ON CLUSTER`, or on the node it talks to)',
  },
  {
    group: 'ClickHouse',
    env: 'WEFT_CLICKHOUSE_QUORUM',
    default: '`auto`',
    doc: 'read-your-writes on a replicated cluster: `on` sends accounts, keys, sessions, jobs and the v2 evaluation API with `insert_quorum` and `select_sequential_consistency`; `auto` does when the tables are Replicated; `off` never ([clickhouse.md](clickhouse.md#read-your-writes-on-a-replicated-cluster))',
  },
  {
    group: 'Other commands',
    env: 'WEFT_USER_PASSWORD',
    default: 'unset',
    doc: "the new user's password, when `--password` is not given (used by `weft user add`)",
  },
  {
    group: 'Other commands',
    env: 'WEFT_API_URL',
    default: 'unset',
    doc: "where the dashboard's dev server sends API requests (default `http://127.0.0.1:8420`; `weft dev` sets it) (used by `weft dev`, Vite)",
  },
];

const LIMIT_SETTINGS: readonly Setting[] = LIMIT_SPECS.map((l) => ({
  group: 'Request limits',
  env: l.env,
  flag: l.flag,
  default: `\`${l.default}\``,
  doc: l.what,
}));

export const SETTINGS: readonly Setting[] = [...OWN_SETTINGS, ...LIMIT_SETTINGS];

const BY_ENV = new Map(SETTINGS.map((s) => [s.env, s]));

/** The setting named `env`; a name missing from the table is a programming error. */
export function settingSpec(env: string): Setting {
  const spec = BY_ENV.get(env);
  if (!spec) throw new Error(`${env} is not in the settings table (src/server/settings.ts)`);
  return spec;
}

/** A setting's value: its flag when given, else its variable; undefined when neither is set. */
export function readSetting(env: string, vars: NodeJS.ProcessEnv, flags: Record<string, string> = {}): string | undefined {
  const spec = settingSpec(env);
  return (spec.flag !== undefined ? flags[spec.flag] : undefined) ?? vars[env];
}
