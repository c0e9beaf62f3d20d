/** Settings, from the environment and `weft serve --flags` (flags win). */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseLogLevel, type LogLevel } from './logger.js';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  store: 'sqlite' | 'clickhouse';
  clickhouseUrl: string | null;
  adminPassword: string | null;
  maxBodyBytes: number;
  sqliteSync: 'normal' | 'full';
  logLevel: LogLevel;
  validateResponses: boolean;
  /** Serve the dashboard (built SPA) at `/`. */
  serveDashboard: boolean;
  /** Server processes sharing the port (see cluster.ts); 1 runs in this process. */
  workers: number;
  /**
   * Request threads (threads/requestThreads.ts): null serves requests on the main thread
   * (`WEFT_THREADS=0`); otherwise the read and write pool sizes and the reads' time budget.
   */
  threads: { read: number; write: number; readBudgetMs: number } | null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string> = {}): ServerConfig {
  const get = (flag: string, name: string) => flags[flag] ?? env[name];
  const store = get('store', 'WEFT_STORE') ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'clickhouse') throw new Error(`WEFT_STORE must be "sqlite" or "clickhouse", not "${store}"`);
  const port = Number(get('port', 'PORT') ?? 8420);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${get('port', 'PORT')}"`);
  return {
    host: get('host', 'HOST') ?? '127.0.0.1',
    port,
    dataDir: resolve(get('data-dir', 'WEFT_DATA_DIR') ?? './.weft'),
    store,
    clickhouseUrl: get('clickhouse-url', 'WEFT_CLICKHOUSE_URL') ?? null,
    adminPassword: env.WEFT_ADMIN_PASSWORD ?? null,
    maxBodyBytes: Number(get('max-body-bytes', 'WEFT_MAX_BODY_BYTES') ?? 32 * 1024 * 1024),
    sqliteSync: env.WEFT_SQLITE_SYNC === 'full' ? 'full' : 'normal',
    logLevel: parseLogLevel(get('log-level', 'WEFT_LOG_LEVEL')),
    validateResponses: env.WEFT_VALIDATE_RESPONSES === '1',
    serveDashboard: env.WEFT_NO_DASHBOARD !== '1',
    workers: parseWorkers(get('workers', 'WEFT_WORKERS')),
    threads:
      get('threads', 'WEFT_THREADS') === '0'
        ? null
        : {
            read: count(get('read-threads', 'WEFT_READ_THREADS'), 4, 'WEFT_READ_THREADS'),
            // One parses while the writer writes; more only pays with cores to spare.
            write: count(
              get('write-threads', 'WEFT_WRITE_THREADS'),
              Math.max(1, Math.min(2, availableParallelism() - 1)),
              'WEFT_WRITE_THREADS',
            ),
            readBudgetMs: budget(get('read-budget-ms', 'WEFT_READ_BUDGET_MS')),
          },
  };
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

/** `auto` means one process per CPU core (at most 8); a number is taken as is. */
function parseWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return Math.min(8, availableParallelism());
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WEFT_WORKERS / --workers must be a whole number ≥ 1 or "auto", not "${value}"`);
  return n;
}
