/**
 * @module
 * How long an idle keep-alive connection stays open: 65 s instead of Node's 5 s. A client that
 * sends on a pooled connection just as the server closes it gets a reset ("other side closed",
 * nodejs/undici#3141) for a request that never arrived; with 5 s a busy client, whose timers
 * run late, hits it often (bench:load on a loaded machine: dozens of failed requests a run, all
 * "other side closed"). 65 s also outlasts the 60 s idle timeout of common proxies and load
 * balancers in front, which must close first. The request timeouts are unchanged (headersTimeout
 * counts from a request's first byte, not from the connection's idle time).
 */
import type { Server } from 'node:http';

const KEEP_ALIVE_SECONDS = 65;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
}
