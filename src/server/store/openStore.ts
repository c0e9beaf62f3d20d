/** Opens the configured backend. */
import { join } from 'node:path';
import type { Store } from './Store.js';
import { SqliteStore } from './sqlite/SqliteStore.js';

export interface StoreConfig {
  kind: 'sqlite' | 'clickhouse';
  dataDir: string;
  sqliteSync?: 'normal' | 'full';
  clickhouseUrl?: string | null;
}

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'clickhouse') {
    throw new Error('WEFT_STORE=clickhouse is not available in this version yet; unset WEFT_STORE to use the embedded SQLite store.');
  }
  return new SqliteStore(join(config.dataDir, 'weft.sqlite'), { synchronous: config.sqliteSync });
}
