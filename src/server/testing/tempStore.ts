/**
 * The backends the store conformance suites run against, chosen by `WEFT_TEST_STORES`
 * (a comma-separated list; default `sqlite`), in kysely's DIALECTS shape: every suite runs once
 * per listed backend, unchanged. A backend gives three things: a fresh store, a second store on
 * the same database (for the multi-writer suite), and the server settings that select it (for
 * the suites that go through HTTP).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ClickHouseStore } from '../store/clickhouse/ClickHouseStore.js';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';
import { giveBackClickHouseDatabase, standInDatabaseName, takeClickHouseDatabase } from './clickhouseDatabases.js';
import { selectedTestStores } from './testStores.js';

/** How a conformance suite gets a backend: an open store and a way to dispose of it. */
export type OpenStore = () => Promise<{ store: Store; close(): Promise<void> }>;

/** Two stores writing the same database, as two processes (or replicas) would. */
export type OpenStorePair = () => Promise<{ a: Store; b: Store; close(): Promise<void> }>;

/** The conformance suites (store/conformance/index.ts), by name. */
export type ConformanceSuite =
  | 'calls'
  | 'callsSearch'
  | 'threads'
  | 'threadsFilters'
  | 'projects'
  | 'accounts'
  | 'objects'
  | 'tables'
  | 'files'
  | 'feedback'
  | 'costs'
  | 'stats'
  | 'annotationQueues'
  | 'redaction'
  | 'jobs'
  | 'monitors'
  | 'providers'
  | 'identities'
  | 'writeBatch'
  | 'multiWriter'
  | 'orderIndependence'
  | 'retention'
  | 'alerts'
  | 'callsQuery'
  | 'callsFeedbackQuery'
  | 'referenceObjects'
  | 'referenceFeedback'
  | 'referenceCalls'
  | 'referenceEvaluations'
  | 'referenceQueues'
  | 'referenceOtel';

export interface TestBackend {
  name: string;
  open: OpenStore;
  openPair: OpenStorePair;
  /** Environment for `startTestServer` that selects this backend. */
  serverEnv: Record<string, string>;
}

export const openTempSqliteStore: OpenStore = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-store-'));
  const store = await openStore({ kind: 'sqlite', dataDir });
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

const sqlite: TestBackend = {
  name: 'sqlite',
  open: openTempSqliteStore,
  openPair: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-store-pair-'));
    const a = await openStore({ kind: 'sqlite', dataDir });
    const b = await openStore({ kind: 'sqlite', dataDir });
    return {
      a,
      b,
      close: async () => {
        await a.close();
        await b.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  serverEnv: { WEFT_STORE: 'sqlite' },
};

/** The test run's ClickHouse server (clickhouseGlobalSetup.ts), or null when it has none. */
function clickhouseUrl(): string | null {
  return inject('clickhouseUrl') ?? null;
}

/**
 * A migrated, empty database of its own on the test run's ClickHouse server; `drop` hands it back
 * (emptied for another test, or dropped if the test changed its schema: clickhouseDatabases.ts).
 */
export async function createTempClickHouseDatabase(): Promise<{ url: string; database: string; drop(): Promise<void> }> {
  const url = clickhouseUrl();
  if (!url) throw new Error('No ClickHouse server for this test run (see src/server/testing/clickhouseGlobalSetup.ts).');
  const database = await takeClickHouseDatabase({ url });
  return { url, database, drop: () => giveBackClickHouseDatabase({ url }, database) };
}

const clickhouse: TestBackend = {
  name: 'clickhouse',
  open: async () => {
    const db = await createTempClickHouseDatabase();
    const store = await ClickHouseStore.open(db);
    return {
      store,
      close: async () => {
        await store.close();
        await db.drop();
      },
    };
  },
  openPair: async () => {
    const db = await createTempClickHouseDatabase();
    const a = await ClickHouseStore.open(db);
    const b = await ClickHouseStore.open(db);
    return {
      a,
      b,
      close: async () => {
        await a.close();
        await b.close();
        await db.drop();
      },
    };
  },
  /** A database of its own for each server: startTestServer swaps this stand-in for a migrated one. */
  get serverEnv() {
    return {
      WEFT_STORE: 'clickhouse',
      WEFT_CLICKHOUSE_URL: clickhouseUrl() ?? '',
      WEFT_CLICKHOUSE_DATABASE: standInDatabaseName(),
    };
  },
};

const BACKENDS: Record<string, TestBackend> = { sqlite, clickhouse };

/**
 * The backends named in WEFT_TEST_STORES (default: all); an unknown name is an error, not a
 * silent skip. ClickHouse is left out only when it was not asked for by name and the run has no
 * engine, which the global setup has already said loudly (and which fails under CI=true).
 */
export function testBackends(env: NodeJS.ProcessEnv = process.env): TestBackend[] {
  const { names, explicit } = selectedTestStores(env);
  return names
    .filter((name) => name !== 'clickhouse' || explicit || clickhouseUrl() !== null)
    .map((name) => {
      const backend = BACKENDS[name];
      if (!backend) throw new Error(`WEFT_TEST_STORES names "${name}"; known backends: ${Object.keys(BACKENDS).join(', ')}`);
      return backend;
    });
}
