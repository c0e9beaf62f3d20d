/**
 * `weft dev`: the service (API only) on PORT (default 8420) and Vite's dev server on 5173 with
 * hot reload. The browser talks to Vite; vite.config.ts proxies API requests to the service at
 * WEFT_API_URL, which is set here to wherever the service actually listens.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { loadConfig, type ServerConfig } from '../config.js';
import { dashboardBuildNeed, PROJECT_ROOT } from './dashboardBuild.js';
import { startServer, type RunningServer } from './main.js';

const HELP = `weft dev — the service plus the dashboard from Vite, with hot reload

Usage:
  weft dev [--port 8420] [--vite-port 5173] [--host 127.0.0.1] [--data-dir ./.weft]

Open the dashboard URL it prints; API requests are proxied to the service.`;

export async function devCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      'vite-port': { type: 'string', default: '5173' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(HELP);
  const flags: Record<string, string> = {};
  for (const key of ['port', 'host', 'data-dir'] as const) if (values[key]) flags[key] = values[key];
  const vitePort = Number(values['vite-port']);
  if (!Number.isInteger(vitePort) || vitePort < 1 || vitePort > 65535)
    throw new Error(`--vite-port must be a port number, not "${values['vite-port']}"`);

  const server = await startApi(loadConfig(process.env, flags));
  const stops: (() => Promise<void>)[] = [() => server.close()];
  const shutdown = async () => {
    for (const stop of stops.reverse()) await stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  console.log(`\nAPI:        ${server.url}   (docs: ${server.url}/docs)`);
  if (dashboardBuildNeed(PROJECT_ROOT) === 'no-sources') {
    console.log('Dashboard:  not in this checkout yet (no index.html or src/web); running the API only.');
  } else {
    process.env.WEFT_API_URL = server.url;
    const { createServer } = await import('vite');
    const vite = await createServer({ root: PROJECT_ROOT, configFile: join(PROJECT_ROOT, 'vite.config.ts'), server: { port: vitePort } });
    await vite.listen();
    stops.push(() => vite.close());
    console.log(`Dashboard:  ${vite.resolvedUrls?.local[0] ?? `http://localhost:${vitePort}/`}   (hot reload)`);
  }
  if (server.generatedAdminPassword) {
    console.log(
      `\nFirst start: log in as  admin / ${server.generatedAdminPassword}  (shown once; set WEFT_ADMIN_PASSWORD to choose your own)`,
    );
  } else {
    console.log('\nLog in as admin (password from WEFT_ADMIN_PASSWORD or the one printed at first start).');
  }
}

/** Starts the service without the built dashboard; a busy port gets a sentence, not a stack. */
async function startApi(config: ServerConfig): Promise<RunningServer> {
  try {
    return await startServer(config);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`port ${config.port} is in use (is \`npm start\` running?); stop it, or pick another with --port`, { cause: err });
    }
    throw err;
  }
}
