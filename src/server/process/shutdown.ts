/**
 * Graceful shutdown of `weft serve` (docs/operations/shutdown-and-readiness.md). On SIGTERM or
 * SIGINT the server stops accepting connections, answers any request that still arrives on a
 * kept-alive connection with 503, `Connection: close` and `Retry-After` (so a client retries it
 * elsewhere, or here after the restart), lets the requests in flight finish for up to
 * WEFT_SHUTDOWN_GRACE_MS, then main.ts flushes the write batch, hands running jobs back and
 * closes the store, and the process exits 0.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** When a client refused during a drain may try again: a restart takes about this long. */
const DRAIN_RETRY_SECONDS = 2;

export interface Drain {
  /** Whether the server is draining (no request is served any more). */
  readonly draining: boolean;
  /** Requests being served. */
  readonly inFlight: number;
  /**
   * Stops accepting, refuses new requests, and resolves once the requests in flight have
   * finished or `graceMs` has passed; then every connection left is closed.
   */
  drain(graceMs: number): Promise<{ unfinished: number }>;
}

/**
 * Puts a gate in front of `server`'s request handler: it counts the requests in flight and,
 * once `drain` is called, refuses new ones. Call it before the first request.
 */
export function drainGate(server: Server): Drain {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let settle: (() => void) | null = null;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      const body = JSON.stringify({
        reason: 'The server is shutting down; send the request again (it was not processed).',
        retry_after: DRAIN_RETRY_SECONDS,
      });
      res.writeHead(503, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': String(DRAIN_RETRY_SECONDS),
        connection: 'close',
      });
      res.end(body);
      // The body is never read: the connection closes after the answer.
      req.resume();
      return;
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (draining && inFlight.size === 0) settle?.();
    });
    for (const handler of handlers) handler(req, res);
  });
  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    async drain(graceMs: number) {
      if (!draining) {
        draining = true;
        // Stops accepting; Node also closes the idle kept-alive connections.
        server.close();
        // A request in flight is answered with `Connection: close`, so its client does not reuse the connection.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      }
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          // Without a bound (tests' close()), until they finish.
          const timer = Number.isFinite(graceMs) ? setTimeout(resolve, graceMs) : undefined;
          settle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const unfinished = inFlight.size;
      server.closeAllConnections();
      return { unfinished };
    },
  };
}

/**
 * Runs `close` on the first SIGTERM or SIGINT and exits 0 once it is done (1 when it failed);
 * `close` outlasting `hardLimitMs` exits at once with status 1, and so does a second signal
 * unless `repeatExits` is false: a `--workers` worker gets Ctrl-C's SIGINT from the terminal and
 * the primary's SIGTERM too (cluster.ts).
 */
export function exitOnSignals(
  close: () => Promise<void>,
  options: { hardLimitMs: number; repeatExits: boolean; log: (msg: string) => void },
): void {
  const { hardLimitMs, log } = options;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (!options.repeatExits) return;
      log(`${signal} again: exiting without finishing the shutdown.`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: finishing the requests in flight, then stopping.`);
    setTimeout(() => {
      log(`The shutdown took longer than ${hardLimitMs} ms: exiting.`);
      process.exit(1);
    }, hardLimitMs).unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`The shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
