/**
 * `weft serve --workers N`: N server processes share one port (node:cluster) and one SQLite
 * file. Parsing and validating request bodies is most of an ingest request's CPU, while
 * SQLite takes one writer at a time, so a second process parses while the first writes
 * (bench/ingest.ts measures the difference). Writes stay safe: every write transaction takes
 * SQLite's write lock up front (BEGIN IMMEDIATE) and waits its turn.
 *
 * The primary prepares the data directory (migrations, the admin user, the dashboard build)
 * before forking, relays "forget cached credentials" between workers so a revoked key stops
 * working everywhere at once, gathers every worker's metrics for `/metrics`
 * (metrics/clusterMetrics.ts), and replaces a worker that dies.
 */
import cluster from 'node:cluster';
import { answerMetricsRequests } from '../metrics/clusterMetrics.js';

const FORGET = 'weft:forget-credentials';
const READY = 'weft:listening';

export const isClusterWorker = (): boolean => cluster.isWorker;

/** In a worker: tell the other workers (through the primary) to drop their credential caches. */
export function broadcastForget(): void {
  process.send?.({ type: FORGET });
}

/** In a worker: run `forgetLocally` whenever another worker revoked or changed credentials. */
export function onForgetFromOthers(forgetLocally: () => void): void {
  process.on('message', (msg: { type?: string }) => {
    if (msg?.type === FORGET) forgetLocally();
  });
}

/** In a worker: report the URL it listens on. */
export function announceListening(url: string): void {
  process.send?.({ type: READY, url });
}

/**
 * In the primary: fork `count` workers; resolves with the URL once the first one listens. On
 * SIGTERM or SIGINT it passes SIGTERM on and exits once every worker has drained and exited
 * (shutdown.ts), 0 when all exited 0; past `hardLimitMs` it kills them and exits 1.
 */
export function forkWorkers(count: number, log: (msg: string) => void, hardLimitMs: number): Promise<string> {
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (msg: { type?: string; url?: string }) => {
      if (msg?.type !== FORGET) return;
      for (const other of Object.values(cluster.workers ?? {})) if (other && other !== worker) other.send(msg);
    });
    answerMetricsRequests(worker);
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log(`Worker ${worker.process.pid} stopped (${signal ?? code}); starting another.`);
    fork();
  });
  let failed = false;
  const draining = new Set<number>();
  cluster.on('exit', (worker, code) => {
    if (!stopping) return;
    if (code !== 0) failed = true;
    draining.delete(worker.id);
    if (draining.size === 0) process.exit(failed ? 1 : 0);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is NonNullable<typeof w> => w !== undefined && !w.isDead());
    if (workers.length === 0) process.exit(0);
    for (const w of workers) {
      draining.add(w.id);
      w.process.kill('SIGTERM');
    }
    setTimeout(() => {
      log(`Workers still running ${hardLimitMs} ms after SIGTERM: killing them.`);
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, hardLimitMs).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((resolve) => {
    for (let i = 0; i < count; i++) {
      fork().on('message', (msg: { type?: string; url?: string }) => {
        if (msg?.type === READY && msg.url) resolve(msg.url);
      });
    }
  });
}
