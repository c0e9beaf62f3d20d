/**
 * A store on a fresh temporary SQLite file, for the store conformance suites; `close()`
 * also deletes the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';

/** How a conformance suite gets a backend: an open store and a way to dispose of it. */
export type OpenStore = () => Promise<{ store: Store; close(): Promise<void> }>;

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
