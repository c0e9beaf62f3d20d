/**
 * The backend a benchmark runs on, chosen with `--store sqlite` (the default: SQLite files in a
 * temporary directory) or `--store clickhouse` (a ClickHouse engine of its own on a temporary
 * directory, scripts/clickhouseEngine.js, each dataset a database migrated as `weft migrate`
 * does). Benchmarks seed a dataset through its Store, close it, and serve Weft on it with the
 * dataset's environment, so both backends run the same requests.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClickHouseEngine } from '../scripts/clickhouseEngine.js';
import { ClickHouseSearchIndexer } from '../src/server/store/clickhouse/callSearchIndexer.js';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';
import { ClickHouseStore } from '../src/server/store/clickhouse/ClickHouseStore.js';
import { migrateClickHouse } from '../src/server/store/clickhouse/migrate.js';
import { SqliteStore } from '../src/server/store/sqlite/SqliteStore.js';
import type { Store } from '../src/server/store/Store.js';
import { serverCpu } from './lib.js';

export type BenchStoreKind = 'sqlite' | 'clickhouse';

/** The `--store` option of every benchmark that runs on both backends. */
export const STORE_OPTION = { store: { type: 'string', default: 'sqlite' } } as const;

export function benchStoreKind(value: string): BenchStoreKind {
  if (value !== 'sqlite' && value !== 'clickhouse') throw new Error(`--store must be sqlite or clickhouse, not "${value}"`);
  return value;
}

export interface BenchDataset {
  /** Weft's data directory for this dataset. */
  dataDir: string;
  /** Open while seeding; the benchmark closes it before serving. */
  store: Store;
  /** The environment of a Weft server on this dataset (WEFT_DATA_DIR included). */
  env: Record<string, string>;
  /** The ClickHouse server and database holding it (null on SQLite). */
  clickhouse: { url: string; database: string } | null;
  /** The SQLite file (null on ClickHouse). */
  sqliteFile: string | null;
}

export interface BenchBackend {
  kind: BenchStoreKind;
  /** A new, empty dataset; `name` is letters, digits and _ (a ClickHouse database name). */
  dataset(name: string): Promise<BenchDataset>;
  /** The ClickHouse engine's process id, for its CPU time (null on SQLite). */
  enginePid: number | null;
  /** Stops the engine (ClickHouse) and removes every file. */
  close(): Promise<void>;
}

/**
 * `keepDir`: the engine's data and the datasets' directories live there and stay after close, so
 * a later run measures them again without seeding (ClickHouse only; SQLite benches keep a file).
 */
export async function startBenchBackend(kind: BenchStoreKind, options: { keepDir?: string } = {}): Promise<BenchBackend> {
  const root = options.keepDir ?? mkdtempSync(join(tmpdir(), `weft-bench-${kind}-`));
  const engine = kind === 'clickhouse' ? await startClickHouseEngine({ dataDir: join(root, 'clickhouse') }) : null;
  if (engine) console.log(`ClickHouse engine (${engine.launcher} launcher) up in ${engine.startMs} ms at ${engine.url}`);
  return {
    kind,
    enginePid: engine?.pid ?? null,
    async dataset(name): Promise<BenchDataset> {
      const dataDir = join(root, name);
      mkdirSync(dataDir, { recursive: true });
      if (!engine) {
        const sqliteFile = join(dataDir, 'weft.sqlite');
        return { dataDir, store: new SqliteStore(sqliteFile), env: { WEFT_DATA_DIR: dataDir }, clickhouse: null, sqliteFile };
      }
      const clickhouse = { url: engine.url, database: name };
      await migrateClickHouse(clickhouse);
      return {
        dataDir,
        // Seeding without the search indexer beside it; settleMerges drains its queue after.
        store: await ClickHouseStore.open({ ...clickhouse, searchIndexer: false }),
        env: {
          WEFT_DATA_DIR: dataDir,
          WEFT_STORE: 'clickhouse',
          WEFT_CLICKHOUSE_URL: engine.url,
          WEFT_CLICKHOUSE_DATABASE: name,
          // On a machine shared with other work the engine may take seconds to answer its ping;
          // a benchmark measures it slow, not unreachable.
          WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS: '30000',
        },
        clickhouse,
        sqliteFile: null,
      };
    },
    async close() {
      await engine?.stop();
      if (!options.keepDir) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The 1-, 5- and 15-minute load averages, printed beside figures taken on a shared machine. */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}

/**
 * Indexes a ClickHouse dataset's whole substring-search queue (docs/search.md "How each backend finds them"), as a
 * server's background indexer would after seeding, so that timings do not share the engine with
 * it; prints how long it took (and the engine's CPU per part, given its pid).
 */
export async function drainSearchQueue(
  dataset: BenchDataset,
  enginePid: number | null = null,
): Promise<{ parts: number; seconds: number; engineCpuSeconds: number | null }> {
  if (!dataset.clickhouse) return { parts: 0, seconds: 0, engineCpuSeconds: null };
  const db = new ClickHouseDatabase({ ...dataset.clickhouse, longStatements: true });
  try {
    const cpu0 = enginePid ? serverCpu(enginePid).process : 0;
    const t0 = performance.now();
    const parts = await new ClickHouseSearchIndexer(db, { lagMs: 0 }).drain();
    const seconds = (performance.now() - t0) / 1000;
    const engineCpuSeconds = enginePid ? serverCpu(enginePid).process - cpu0 : null;
    if (parts > 0) {
      const cpu =
        engineCpuSeconds == null
          ? ''
          : `, engine CPU ${engineCpuSeconds.toFixed(1)} s (${((engineCpuSeconds * 1e6) / parts).toFixed(0)} µs per call)`;
      console.log(`Search queue drained: ${parts.toLocaleString('en')} calls in ${seconds.toFixed(1)} s${cpu}`);
    }
    return { parts, seconds, engineCpuSeconds };
  } finally {
    await db.close();
  }
}

/**
 * Waits until the engine has run no merge on the dataset's database for three seconds in a row
 * (at most `maxSeconds`), so timings do not share the machine with the background merges that
 * seeding leaves behind: right after seeding 1M calls one 2-s merge lands inside some queries,
 * and after 10M the merges ran for minutes. Nothing to wait for on SQLite.
 */
export async function settleMerges(dataset: BenchDataset, maxSeconds = 900): Promise<void> {
  if (!dataset.clickhouse) return;
  await drainSearchQueue(dataset);
  const db = new ClickHouseDatabase(dataset.clickhouse);
  const t0 = performance.now();
  try {
    for (let quiet = 0; quiet < 3 && performance.now() - t0 < maxSeconds * 1000;) {
      const row = await db.get<{ n: string }>('SELECT count() AS n FROM system.merges WHERE database = {d:String}', {
        d: dataset.clickhouse.database,
      });
      const running = Number(row?.n ?? 0);
      quiet = running === 0 ? quiet + 1 : 0;
      process.stdout.write(`\rWaiting for background merges: ${running} running, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await db.close();
  }
  console.log('');
}
