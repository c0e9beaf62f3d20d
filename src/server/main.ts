/**
 * Process entry for `weft serve`: open the store, make sure an admin exists, listen.
 * `startServer` is also what tests and benchmarks use to run a real server.
 */
import { serve, type ServerType } from '@hono/node-server';
import { maxHeaderSize, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerClientErrorsAsJson } from './http/clientErrors.js';
import { createApp } from './app.js';
import { Authenticator } from './auth/authenticate.js';
import { ensureAdmin } from './auth/bootstrap.js';
import { broadcastForget, isClusterWorker, onForgetFromOthers } from './cluster.js';
import type { ServerConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { openStore } from './store/openStore.js';
import type { Store } from './store/Store.js';
import type { Hono } from 'hono';
import { loadTlsMaterial, type TlsMaterial } from './tls.js';

export interface RunningServer {
  url: string;
  store: Store;
  log: Logger;
  /** The generated admin password, when this start created the admin without one given. */
  generatedAdminPassword: string | null;
  /** The certificate served, when HTTPS is on. */
  tls: TlsMaterial | null;
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig, options: { mountDashboard?: (app: Hono) => void } = {}): Promise<RunningServer> {
  const log = createLogger(config.logLevel);
  const store = await openStore({
    kind: config.store,
    dataDir: config.dataDir,
    sqliteSync: config.sqliteSync,
    clickhouseUrl: config.clickhouseUrl,
  });
  const generatedAdminPassword = await ensureAdmin(store, config.adminPassword);
  const authenticator = new Authenticator(store, {
    ...(isClusterWorker() ? { onForget: broadcastForget } : {}),
    throttle: config.loginThrottle,
    hashLimits: config.hashLimits,
    sessions: config.sessions,
  });
  if (isClusterWorker()) onForgetFromOthers(() => authenticator.forgetLocally());
  const app = createApp({
    store,
    authenticator,
    log,
    maxBodyBytes: config.maxBodyBytes,
    limits: config.limits,
    validateResponses: config.validateResponses,
    mountDashboard: options.mountDashboard,
  });
  const tls = config.tls ? await loadTlsMaterial(config.tls, { dataDir: config.dataDir, host: config.host }) : null;
  const https = tls ? { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } } : {};
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port, ...https }, () => resolve(s));
    s.once('error', reject);
  });
  answerClientErrorsAsJson(server as HttpServer, maxHeaderSize);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `${tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    store,
    log,
    generatedAdminPassword,
    tls,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
