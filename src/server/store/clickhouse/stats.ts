/**
 * ClickHouse implementation of StatsStore: the exact path. Call facts stream from the merged
 * calls; no rollup cells are kept (`rollupCells` answers null, which the domain takes as "scan
 * the facts"), so nothing has to be kept in step with writes across replicas. Computing the
 * cells in SQL on the fly (shared/design/clickhouse.md §4.4) is the next step for large projects.
 */
import type { CallsFilter } from '../../../contract/calls.js';
import type { CallFacts, StatsStore } from '../StatsStore.js';
import { num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { compileCallsWhere } from './callsList.js';

interface FactRow {
  started_at: string;
  latency_ms: string | null;
  failed: number;
  usage?: string;
}

export class ClickHouseStatsStore implements StatsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async *callFacts(q: {
    projectId: string;
    filter?: CallsFilter | null;
    from: number;
    to: number;
    withUsage: boolean;
  }): AsyncIterable<CallFacts> {
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.filter });
    // Whole milliseconds, truncated as SQLite's integer division does.
    const usage = q.withUsage ? ", JSONExtractRaw(ifNull(summary, '{}'), 'usage') AS usage" : '';
    const rows = this.#db.stream<FactRow>(
      `SELECT started_at, intDiv(ended_at - started_at, 1000) AS latency_ms, exception IS NOT NULL AS failed${usage}
       FROM calls FINAL WHERE ${where} AND started_at >= {from:Int64} AND started_at < {to:Int64} ORDER BY started_at, id`,
      { ...params, from: q.from, to: q.to },
    );
    for await (const r of rows) {
      yield { startedAt: num(r.started_at), latencyMs: numOrNull(r.latency_ms), failed: r.failed === 1, usageJson: r.usage || null };
    }
  }

  async rollupCells(): Promise<null> {
    return null;
  }
}
