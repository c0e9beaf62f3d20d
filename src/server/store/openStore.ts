/** Opens the configured backend. */
import { join } from 'node:path';
import type { Store } from './Store.js';
import type { HistoryDedup } from './sqlite/history/historyBlobs.js';
import { SqliteStore } from './sqlite/SqliteStore.js';
import { ClickHouseStore } from './clickhouse/ClickHouseStore.js';
import type { SmallWritesMode } from './clickhouse/groupCommit.js';
import type { QuorumMode } from './clickhouse/ClickHouseDatabase.js';
import { DEFAULT_SPOOL_FLUSH_MS } from './clickhouse/spool.js';

export interface StoreConfig {
  kind: 'sqlite' | 'clickhouse';
  dataDir: string;
  sqliteSync?: 'normal' | 'full';
  sqliteBusyTimeoutMs?: number;
  /** Store repeated call content once (docs/history-storage.md); default 'on'. */
  historyDedup?: HistoryDedup;
  clickhouseUrl?: string | null;
  clickhouseUser?: string | null;
  clickhousePassword?: string | null;
  /** Default `weft`. */
  clickhouseDatabase?: string | null;
  clickhouseConnectTimeoutMs?: number;
  clickhouseSmallWrites?: SmallWritesMode;
  clickhouseThreadSnapshots?: boolean;
  clickhouseSpoolFlushMs?: number;
  clickhouseQuorum?: QuorumMode;
  clickhouseOnCluster?: boolean;
  /** Long work at open (a SQLite schema upgrade, the stats backfill), for the log. */
  progress?: (message: string) => void;
}

/** The ClickHouse connection settings of a config; refuses a missing URL. */
export function clickhouseOptions(config: StoreConfig) {
  if (!config.clickhouseUrl) throw new Error('WEFT_STORE=clickhouse needs WEFT_CLICKHOUSE_URL (for example http://127.0.0.1:8123).');
  return {
    url: config.clickhouseUrl,
    username: config.clickhouseUser ?? null,
    password: config.clickhousePassword ?? null,
    database: config.clickhouseDatabase || 'weft',
    connectTimeoutMs: config.clickhouseConnectTimeoutMs,
    smallWrites: config.clickhouseSmallWrites,
    threadSnapshots: config.clickhouseThreadSnapshots,
    // One file per database, so replicas of different databases can share a data directory.
    spool:
      config.clickhouseSmallWrites === 'spool'
        ? {
            path: join(config.dataDir, `clickhouse-spool-${config.clickhouseDatabase || 'weft'}.sqlite`),
            flushMs: config.clickhouseSpoolFlushMs ?? DEFAULT_SPOOL_FLUSH_MS,
            synchronous: config.sqliteSync,
          }
        : undefined,
    quorum: config.clickhouseQuorum,
    onCluster: config.clickhouseOnCluster,
  };
}

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'clickhouse') {
    return ClickHouseStore.open(clickhouseOptions(config));
  }
  return new SqliteStore(join(config.dataDir, 'weft.sqlite'), {
    synchronous: config.sqliteSync,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    historyDedup: config.historyDedup,
    progress: config.progress,
    checkpointThread: true,
  });
}
