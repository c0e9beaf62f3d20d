/**
 * Process entry for `weft serve`: open the store, make sure an admin exists, listen.
 * `startServer` is also what tests and benchmarks use to run a real server.
 */
import { serve, type ServerType } from '@hono/node-server';
import { maxHeaderSize, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { answerClientErrorsAsJson } from '../http/clientErrors.js';
import { keepIdleConnections } from '../http/keepAlive.js';
import { createApp } from '../app.js';
import { Authenticator } from '../auth/authenticate.js';
import { AccountsEpochWatch } from '../auth/accountsEpoch.js';
import { ensureAdmin } from '../auth/bootstrap.js';
import { broadcastForget, isClusterWorker, onForgetFromOthers } from './cluster.js';
import { storeConfigOf, type ServerConfig } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { systemClock, type Clock, type Services } from '../services.js';
import { ClickHouseStore } from '../store/clickhouse/ClickHouseStore.js';
import { openStore } from '../store/openStore.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import { SqliteFailureLog } from '../store/sqlite/loginFailures.js';
import { GroupCommitter } from '../threads/groupCommit.js';
import { WriteTurns } from '../threads/writeTurns.js';
import { RequestThreads } from '../threads/requestThreads.js';
import type { Store } from '../store/Store.js';
import { SecretBox } from '../auth/secretBox.js';
import { createJobHandlers } from '../jobs/jobHandlers.js';
import { JobRunner } from '../jobs/JobRunner.js';
import { onCallsEnded } from '../metrics/hooks.js';
import { MonitorSweeper } from '../jobs/MonitorSweeper.js';
import { AlertSweeper } from '../jobs/AlertSweeper.js';
import { RetentionSweeper } from '../jobs/RetentionSweeper.js';
import { instancePriceRecords } from '../providers/instancePrices.js';
import { loadInstanceProviders } from '../providers/instanceProviders.js';
import { ProviderRegistry } from '../providers/providerRegistry.js';
import { OutboundClient, type ResolveHost } from '../outbound/outboundClient.js';
import { unreachableInstanceProviders } from '../outbound/instanceReach.js';
import { loadTlsMaterial, type TlsMaterial } from './tls.js';
import { markServing } from '../backup/dataDirLock.js';
import { dropMetricSources, setMetricSources, type MetricSources } from '../metrics/registry.js';
import { drainGate } from './shutdown.js';
import { StoredAuditTrail } from '../audit/auditTrail.js';
import { AuditSweeper } from '../audit/auditSweeper.js';
import { OidcSignIn } from '../auth/oidc.js';

export interface RunningServer {
  url: string;
  store: Store;
  log: Logger;
  /** The generated admin password, when this start created the admin without one given. */
  generatedAdminPassword: string | null;
  /** The background-job runner (tests stop it to simulate a crash). */
  jobs: JobRunner;
  /** The alert sweep (tests queue a minute's evaluations with `sweepNow`). */
  alerts: AlertSweeper;
  /** The retention sweep (tests run one with `sweepNow`). */
  retention: RetentionSweeper;
  /** The certificate served, when HTTPS is on. */
  tls: TlsMaterial | null;
  /** The request threads, when requests run in them. */
  threads: RequestThreads | null;
  /**
   * Stops: refuses new requests, waits for those in flight (up to `graceMs`; without it, until
   * they finish), hands running jobs back, flushes the write batch and closes the store (shutdown.ts).
   */
  close(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  /** The built dashboard to serve (process/dashboard.ts), in this thread and the request threads; none when absent. */
  dashboardDir?: string;
  /**
   * The clock handlers read "now" from; the system clock when absent. Request threads
   * (WEFT_THREADS) keep the system clock: a clock is code, and cannot be sent to them.
   */
  clock?: Clock;
  /** How outbound requests resolve host names (tests map names to addresses); the system resolver when absent. */
  resolveHost?: ResolveHost;
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const log = createLogger(config.logLevel, { format: config.logFormat });
  const store = await openStore(storeConfigOf(config));
  const admin = await ensureAdmin(store, config.adminPassword, config.scrypt).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  if (admin.notice) log.warn(admin.notice);
  // `weft restore` refuses while this record says a server uses the SQLite file (backup/dataDirLock.ts).
  const unmarkServing = store instanceof SqliteStore && store.file !== ':memory:' ? markServing(config.dataDir) : null;
  const generatedAdminPassword = admin.generated;
  if (store instanceof ClickHouseStore && !config.secret) {
    log.warn(
      `WEFT_SECRET is not set: provider keys are sealed with ${config.dataDir}/secret.key, which other replicas do not have. Give every replica the same WEFT_SECRET.`,
    );
  }
  const instanceProviders = loadInstanceProviders({
    env: config.env,
    openaiApiKey: config.openaiApiKey,
    openaiBaseUrl: config.openaiBaseUrl,
    providersFile: config.providersFile,
    dataDir: config.dataDir,
  });
  // The operator's model prices join the cost table, so calls and /costs/query price them.
  await store.costs.replaceInstancePrices(instancePriceRecords(instanceProviders));
  const outbound = new OutboundClient({ allow: config.outboundAllow, ...(options.resolveHost ? { resolve: options.resolveHost } : {}) });
  for (const warning of await unreachableInstanceProviders(instanceProviders, outbound)) log.warn(warning);
  const box = SecretBox.open({ secret: config.secret, dataDir: config.dataDir });
  const registry = new ProviderRegistry({
    store,
    box,
    instance: instanceProviders,
    outbound,
    timeoutMs: config.providerTimeoutMs,
    maxAnswerBytes: config.limits.maxProviderAnswerBytes,
    maxImageBytes: config.limits.maxFileBytes,
  });
  const clock = options.clock ?? systemClock;
  const jobs = new JobRunner({
    store,
    log,
    clock,
    handlers: createJobHandlers({ store, registry, clock, limits: config.limits }),
    concurrency: config.jobConcurrency,
    staleMs: config.jobStaleMs,
    maxAttempts: config.jobMaxAttempts,
    maxRunningPerProject: config.jobProjectConcurrency,
    maxQueuedPerProject: config.jobProjectQueue,
  });
  const monitors = new MonitorSweeper({ store, log, clock, kick: () => jobs.kick(), pollMs: config.monitorPollMs });
  const alerts = new AlertSweeper({ store, log, clock, jobs });
  // The one writer's group commit (threads/groupCommit.ts), taking turns on the write lock with
  // the retention sweep's thread (threads/writeTurns.ts).
  const turns = new WriteTurns();
  const committer = store instanceof SqliteStore ? new GroupCommitter(store, turns) : null;
  const retention = new RetentionSweeper({
    store,
    log,
    clock,
    everyMs: config.retentionSweepMs,
    // On a file, the sweep's batches run on a thread of their own (jobs/retentionThread.ts).
    ...(store instanceof SqliteStore && store.file !== ':memory:' ? { thread: { file: store.file, turns } } : {}),
  });
  const authenticator = new Authenticator(store, {
    ...(isClusterWorker() ? { onForget: broadcastForget } : {}),
    throttle: config.loginThrottle,
    // Failed sign-ins are counted in the database when it is a file every process shares.
    ...(store instanceof SqliteStore ? { failureLog: new SqliteFailureLog(store.db) } : {}),
    hashLimits: config.hashLimits,
    scrypt: config.scrypt,
    sessions: config.sessions,
    clock,
    passwordSignIn: config.oidc?.only
      ? {
          onlyFor: new Set(config.oidc.breakGlass),
          refusal: `Password sign-in is off on this server: use "Sign in with ${config.oidc.name}" (WEFT_OIDC_ONLY). SDKs and scripts keep using API keys.`,
        }
      : null,
  });
  if (isClusterWorker()) onForgetFromOthers(() => authenticator.forgetLocally());
  // Replicas on one ClickHouse hear each other's revocations through the accounts epoch
  // (auth/accountsEpoch.ts says why SQLite keeps the relay above).
  const epochWatch =
    store instanceof ClickHouseStore
      ? new AccountsEpochWatch({ read: () => store.accounts.epoch(), forget: () => authenticator.forgetLocally(), log })
      : null;
  await epochWatch?.start();
  const services: Services = {
    store,
    authenticator,
    log,
    clock,
    inference: { registry, jobs },
    limits: config.limits,
    // Known once the port is open (it may be 0, "any"): set below, before the first request.
    publicUrl: config.publicUrl ?? listenUrl(config, config.port),
    audit: new StoredAuditTrail(store, clock, log),
  };
  if (config.oidc) {
    const oidc = new OidcSignIn({
      config: config.oidc,
      box,
      store,
      authenticator,
      log,
      clock,
      audit: services.audit,
      publicUrl: () => services.publicUrl,
    });
    // Before the port opens, so the login page's first request knows; a failure only leaves the
    // button unavailable (with the reason) until a later sign-in retries it.
    await oidc.discover();
    services.oidc = oidc;
  }
  const appOptions = {
    metrics: config.metrics,
    validateResponses: config.validateResponses,
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
    trustedProxies: config.trustedProxies,
  };
  // Requests run in worker threads over the SQLite file (see threads/) unless WEFT_THREADS=0.
  // The threads exist for SQLite: better-sqlite3 blocks the thread that queries and cannot be
  // interrupted there, so reads get threads of their own to be timed out in and to keep /health
  // answering, and writes are parsed beside the one writer. A ClickHouse query is an HTTP request
  // that never blocks the event loop and is bounded by the server (max_execution_time), so a
  // ClickHouse store (and an in-memory database) serves requests in this process; more CPU
  // comes from --workers and more replicas.
  let threads: RequestThreads | null = null;
  const threadSetup = {
    file: store instanceof SqliteStore ? store.file : '',
    logLevel: config.logLevel,
    logFormat: config.logFormat,
    limits: config.limits,
    validateResponses: config.validateResponses,
    sessions: config.sessions,
    publicUrl: services.publicUrl,
    dashboardDir: options.dashboardDir ?? null,
  };
  if (config.threads && committer && store instanceof SqliteStore && store.file !== ':memory:') {
    threads = new RequestThreads({
      setup: threadSetup,
      readThreads: config.threads.read,
      writeThreads: config.threads.write,
      readBudgetMs: config.threads.readBudgetMs,
      sendTimeoutMs: config.threads.sendTimeoutMs,
      readsPerUser: config.threads.readsPerUser,
      committer,
      authenticator,
      log,
      onForget: () => {
        authenticator.forgetLocally();
        if (isClusterWorker()) broadcastForget();
      },
    });
    if (isClusterWorker()) onForgetFromOthers(() => threads?.forgetAll());
  }
  const app = createApp(services, { ...appOptions, threads });
  const tls = config.tls ? await loadTlsMaterial(config.tls, { dataDir: config.dataDir, host: config.host }) : null;
  const https = tls ? { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } } : {};
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port, ...https }, () => resolve(s));
    s.once('error', reject);
  });
  answerClientErrorsAsJson(server as HttpServer, maxHeaderSize);
  keepIdleConnections(server as HttpServer);
  const gate = drainGate(server as HttpServer);
  const { port } = server.address() as AddressInfo;
  // Still in the turn the port opened in, so no request has been read yet; threads start below.
  services.publicUrl = threadSetup.publicUrl = config.publicUrl ?? listenUrl(config, port);
  if (services.oidc) log.info(`Single sign-on with ${config.oidc!.issuer.href}: its redirect URI for Weft is ${services.oidc.redirectUri}`);
  // Boot one thread of each kind now that the port is open, so the first requests find them warm.
  threads?.warm();
  jobs.start();
  monitors.start();
  alerts.start();
  // Ended calls wake the sweeper from its idle back-off (docs/clickhouse.md "Quiet when idle").
  const unwake = onCallsEnded(() => monitors.wake());
  const auditSweeper = config.auditRetentionDays ? new AuditSweeper({ store, clock, log, retentionDays: config.auditRetentionDays }) : null;
  auditSweeper?.start();
  retention.start();
  const metricSources: MetricSources = {
    store,
    threads,
    jobs,
    monitors,
    sqliteFile: store instanceof SqliteStore && store.file !== ':memory:' ? store.file : null,
    ...(store instanceof ClickHouseStore ? { clickhouseBytes: () => clickhouseBytes(store) } : {}),
    ...(store instanceof ClickHouseStore && store.spool ? { spoolBacklog: () => store.spool!.backlog } : {}),
  };
  if (config.metrics !== 'off') setMetricSources(metricSources);
  // Once: a second close() (a test's cleanup after a shutdown) waits for the same one.
  let closing: Promise<void> | null = null;
  const stop = async (graceMs: number): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    // Requests in flight finish meanwhile; background work stops at once (jobs are handed back).
    const [drained] = await Promise.all([
      gate.drain(graceMs),
      epochWatch?.stop(),
      (unwake(), monitors.stop()),
      alerts.stop(),
      retention.stop(),
      jobs.stop(),
      auditSweeper?.stop(),
    ]);
    if (drained.unfinished) log.warn(`Shutdown: ${drained.unfinished} request(s) still running after ${graceMs} ms were cut off.`);
    await closed;
    // Units a thread handed over just before its request was cut off still commit (or fail) before the store closes.
    await committer?.idle();
    await threads?.close();
    await committer?.idle();
    outbound.close();
    await store.close();
    dropMetricSources(metricSources);
    unmarkServing?.();
  };
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `${tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    store,
    log,
    generatedAdminPassword,
    jobs,
    alerts,
    retention,
    tls,
    threads,
    close: (graceMs = Infinity) => (closing ??= stop(graceMs)),
  };
}

/**
 * The address the server listens on, as a URL: what it says of itself without WEFT_PUBLIC_URL.
 * Bound to every interface, the machine's name stands for them.
 */
function listenUrl(config: ServerConfig, port: number): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const host = wildcard ? hostname() : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.tls ? 'https' : 'http'}://${host}:${port}`;
}

/** The bytes the database's active parts take on disk: one small query on system tables, at scrape time. */
async function clickhouseBytes(store: ClickHouseStore): Promise<number> {
  const row = await store.db.get<{ bytes: string }>(
    'SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = currentDatabase() AND active',
  );
  return Number(row?.bytes ?? 0);
}
