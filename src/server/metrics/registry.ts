/**
 * Every metric `/metrics` shows, defined once with its help text (docs/operations/metrics.md is
 * the reference). One registry per process, made the first time a server starts in it: its
 * counters install themselves as the hooks the rest of the code calls (hooks.ts); the gauges are
 * read when scraped, from the running server's parts (`setMetricSources`). Labels are fixed
 * sets (methods, route templates, statuses, kinds, reasons): nothing here names a project,
 * entity, user or id.
 *
 * Under `weft serve --workers N`, each worker keeps its own registry and the primary sums them
 * on request (prom-client's AggregatorRegistry; cluster.ts): a gauge every process reads from the
 * same file or table says how it is combined (`aggregator`), so the total is not N times it.
 */
import cluster from 'node:cluster';
import { statSync } from 'node:fs';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobRunner } from '../jobs/JobRunner.js';
import type { MonitorSweeper } from '../jobs/MonitorSweeper.js';
import type { Store } from '../store/Store.js';
import type { RequestThreads } from '../threads/requestThreads.js';
import { installMetricHooks, type MetricHooks } from './hooks.js';

/** The running server's parts the scrape-time gauges read. */
export interface MetricSources {
  store: Store;
  threads: RequestThreads | null;
  jobs: JobRunner;
  monitors: MonitorSweeper;
  /** The SQLite file (none for ClickHouse or an in-memory database). */
  sqliteFile: string | null;
  /** Bytes the ClickHouse database takes on disk (system.parts); absent for SQLite. */
  clickhouseBytes?: () => Promise<number>;
  /** Write batches acknowledged from the ClickHouse spool and not yet inserted; absent without a spool. */
  spoolBacklog?: () => number;
}

/** Seconds: from a 1 ms health check to a 30 s read at its budget. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A group commit takes about 100 µs at the least (groupCommit.ts). */
const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const UNIT_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/** Rows per commit: MAX_WEIGHT (groupCommit.ts) is 1,000, and one unit may exceed it alone. */
const ROW_BUCKETS = [1, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000];
const WAIT_BUCKETS = [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30];

export interface WeftMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpInFlight: Gauge;
}

let made: WeftMetrics | null = null;
let sources: MetricSources | null = null;

/** The process's registry, made (and the hooks installed) on first use. */
export function weftMetrics(): WeftMetrics {
  return (made ??= createMetrics());
}

/** The server whose parts the gauges read (the last one started in this process). */
export function setMetricSources(next: MetricSources): void {
  sources = next;
}

/** A server closes: its parts are no longer read (unless another server's replaced them). */
export function dropMetricSources(closing: MetricSources): void {
  if (sources === closing) sources = null;
}

function createMetrics(): WeftMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'weft_http_requests_total',
    help: 'HTTP requests answered, by method, route template (unmatched: "(unmatched)") and status ("aborted": the client left before an answer).',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'weft_http_request_duration_seconds',
    help: 'Time from a request reaching the server to the last byte of its answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const httpInFlight = new Gauge({
    name: 'weft_http_requests_in_flight',
    help: 'HTTP requests being served now.',
    registers,
  });
  const ingested = new Counter({
    name: 'weft_calls_ingested_total',
    help: 'Call starts and ends written, by API (sdk: the call endpoints; otel: OTel export, one start and one end per span; evaluation: the v2 evaluation API) and event (start, end).',
    labelNames: ['source', 'event'] as const,
    registers,
  });
  const feedback = new Counter({
    name: 'weft_feedback_written_total',
    help: 'Feedback rows written (reactions, notes, scores, annotations).',
    registers,
  });
  const commitUnits = new Histogram({
    name: 'weft_write_commit_units',
    help: "Requests' units of writes per group commit on the SQLite writer.",
    buckets: UNIT_BUCKETS,
    registers,
  });
  const commitRows = new Histogram({
    name: 'weft_write_commit_rows',
    help: 'Rows of work per group commit on the SQLite writer (a call start or end, a feedback row, an object: one each).',
    buckets: ROW_BUCKETS,
    registers,
  });
  const commitSeconds = new Histogram({
    name: 'weft_write_commit_duration_seconds',
    help: 'Time one group commit held the SQLite writer (the main thread).',
    buckets: COMMIT_BUCKETS,
    registers,
  });
  const queueWait = new Histogram({
    name: 'weft_request_thread_queue_wait_seconds',
    help: 'Time a request waited for a request thread, by kind (read, write).',
    labelNames: ['kind'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const budgetStops = new Counter({
    name: 'weft_budget_stops_total',
    help: 'Requests stopped by a bound: read_budget (504, WEFT_READ_BUDGET_MS), read_queue (503, no read thread free in time), reads_per_user (429, WEFT_READS_PER_USER), send_timeout (stream cut, WEFT_READ_SEND_TIMEOUT_MS).',
    labelNames: ['reason'] as const,
    registers,
  });
  const jobsEnded = new Counter({
    name: 'weft_jobs_finished_total',
    help: 'Background jobs finished, by kind and outcome (succeeded, failed, cancelled).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const loginFailures = new Counter({
    name: 'weft_login_failures_total',
    help: 'Failed sign-ins and unknown API keys, by kind (password, api_key).',
    labelNames: ['kind'] as const,
    registers,
  });
  const loginThrottled = new Counter({
    name: 'weft_login_throttled_total',
    help: 'Sign-ins refused with 429 because their address or user name used up its failures (scope: address, username).',
    labelNames: ['scope'] as const,
    registers,
  });

  const threads = (kind: 'read' | 'write', field: 'total' | 'busy' | 'queued') => sources?.threads?.occupancy()[kind][field];
  new Gauge({
    name: 'weft_request_threads',
    help: 'Request threads running, by kind (read, write).',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      for (const kind of ['read', 'write'] as const) this.set({ kind }, threads(kind, 'total') ?? 0);
    },
  });
  new Gauge({
    name: 'weft_request_threads_busy',
    help: 'Request threads serving at least one request, by kind; busy/total is the saturation.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      for (const kind of ['read', 'write'] as const) this.set({ kind }, threads(kind, 'busy') ?? 0);
    },
  });
  new Gauge({
    name: 'weft_request_threads_queued',
    help: 'Requests waiting for a request thread, by kind.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      for (const kind of ['read', 'write'] as const) this.set({ kind }, threads(kind, 'queued') ?? 0);
    },
  });
  new Gauge({
    name: 'weft_jobs_open',
    help: 'Background jobs queued or running, in the whole instance (read from the store).',
    aggregator: 'max',
    registers,
    async collect() {
      if (sources) this.set(await sources.store.jobs.countOpen({}));
    },
  });
  new Gauge({
    name: 'weft_jobs_running',
    help: 'Background jobs this server (every process of it) runs now.',
    registers,
    collect() {
      this.set(sources?.jobs.running ?? 0);
    },
  });
  new Gauge({
    name: 'weft_monitor_sweep_lag_seconds',
    help: 'Seconds since the monitor sweeper last found its inbox of ended calls empty: up to WEFT_MONITOR_POLL_MS when it keeps up (30 times that while no call ends), growing while it fails or falls behind.',
    aggregator: 'min',
    registers,
    collect() {
      this.set(sources?.monitors.lagSeconds() ?? 0);
    },
  });
  new Gauge({
    name: 'weft_sqlite_database_bytes',
    help: 'Size of the SQLite database file.',
    aggregator: 'max',
    registers,
    collect() {
      const file = sources?.sqliteFile;
      if (file) this.set(fileBytes(file));
    },
  });
  new Gauge({
    name: 'weft_sqlite_wal_bytes',
    help: 'Size of the SQLite write-ahead log (the -wal file beside the database).',
    aggregator: 'max',
    registers,
    collect() {
      const file = sources?.sqliteFile;
      if (file) this.set(fileBytes(`${file}-wal`));
    },
  });
  new Gauge({
    name: 'weft_clickhouse_database_bytes',
    help: "Bytes the ClickHouse database's active parts take on disk (system.parts).",
    aggregator: 'max',
    registers,
    async collect() {
      if (sources?.clickhouseBytes) this.set(await sources.clickhouseBytes());
    },
  });
  new Gauge({
    name: 'weft_clickhouse_spool_batches',
    help: 'Write batches acknowledged from the local spool (WEFT_CLICKHOUSE_SMALL_WRITES=spool) and not yet inserted into ClickHouse: near 0 while the engine keeps up, growing while it is unreachable.',
    registers,
    collect() {
      this.set(sources?.spoolBacklog?.() ?? 0);
    },
  });

  const hooks: MetricHooks = {
    ingested(source, starts, ends) {
      if (starts) ingested.inc({ source, event: 'start' }, starts);
      if (ends) ingested.inc({ source, event: 'end' }, ends);
    },
    feedbackWritten: (rows) => feedback.inc(rows),
    loginFailed: (kind) => loginFailures.inc({ kind }),
    loginThrottled: (scope) => loginThrottled.inc({ scope }),
    committed(units, rows, seconds) {
      commitUnits.observe(units);
      commitRows.observe(rows);
      commitSeconds.observe(seconds);
    },
    queueWaited: (kind, seconds) => queueWait.observe({ kind }, seconds),
    budgetStopped: (reason) => budgetStops.inc({ reason }),
    jobEnded: (kind, outcome) => jobsEnded.inc({ kind, outcome }),
  };
  installMetricHooks(hooks);

  if (cluster.isWorker) {
    // Answers the primary's requests for this process's figures (an AggregatorRegistry
    // listens for them once made), from this registry rather than prom-client's global one.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  return { registry, httpRequests, httpDuration, httpInFlight };
}

/** A file's size, 0 when it does not exist (no WAL between checkpoints on some systems). */
function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
