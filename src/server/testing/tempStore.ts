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
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';

/** How a conformance suite gets a backend: an open store and a way to dispose of it. */
export type OpenStore = () => Promise<{ store: Store; close(): Promise<void> }>;

/** Two stores writing the same database, as two processes (or replicas) would. */
export type OpenStorePair = () => Promise<{ a: Store; b: Store; close(): Promise<void> }>;

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

const BACKENDS: Record<string, TestBackend> = { sqlite };

/** The backends named in WEFT_TEST_STORES; an unknown name is an error, not a silent skip. */
export function testBackends(env: NodeJS.ProcessEnv = process.env): TestBackend[] {
  const names = (env.WEFT_TEST_STORES ?? 'sqlite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.map((name) => {
    const backend = BACKENDS[name];
    if (!backend) throw new Error(`WEFT_TEST_STORES names "${name}"; known backends: ${Object.keys(BACKENDS).join(', ')}`);
    return backend;
  });
}
