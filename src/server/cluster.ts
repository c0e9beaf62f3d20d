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
import { answerMetricsRequests } from './metrics/clusterMetrics.js';

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

/** In the primary: fork `count` workers; resolves with the URL once the first one listens. */
export function forkWorkers(count: number, log: (msg: string) => void): Promise<string> {
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
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise((resolve) => {
    for (let i = 0; i < count; i++) {
      fork().on('message', (msg: { type?: string; url?: string }) => {
        if (msg?.type === READY && msg.url) resolve(msg.url);
      });
    }
  });
}
