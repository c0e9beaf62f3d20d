/**
 * SQLite implementation of StatsStore: call facts straight from `calls` (through the calls
 * filter compiler, so `/calls/stats` filters exactly as `/calls/stream_query` does), and the
 * rollup cells that statsRollup.ts keeps current.
 */
import type { CallFacts, CallFactsQuery } from '../StatsStore.js';
import type { CallCell, RollupWidth, StatsStore, UsageCell } from '../StatsStore.js';
import { LATENCY_MS_SQL } from './callsColumnsSql.js';
import { compileFilter } from './callsQuery.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { installStatsJournal } from './statsJournal.js';
import { refreshStatsRollup } from './statsRollup.js';

interface FactRow {
  started_at: number;
  latency_ms: number | null;
  failed: number;
  usage?: string | null;
}

interface CallCellRow {
  cell: number;
  call_count: number;
  error_count: number;
  latency_count: number;
  latency_sum: number;
  latency_min: number | null;
  latency_max: number | null;
  latency_hist: Buffer | null;
}

interface UsageCellRow {
  cell: number;
  model: string;
  entry_count: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_tokens_count: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export class SqliteStatsStore implements StatsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
    // Only the writer journals (the journal is per connection and fed by its own writes).
    if (!db.readOnly) installStatsJournal(db);
  }

  async *callFacts(q: CallFactsQuery): AsyncIterable<CallFacts> {
    // compileWhere's `started_at IS NOT NULL` would become the index seek's lower bound, and
    // SQLite would then walk the project's whole calls_by_start index up to `to`; the range
    // itself implies the call has started, so only the filter part is reused.
    const filter = q.filter ? compileFilter(q.filter, q.projectId) : [];
    const where = ['project_id = ?', 'started_at >= ?', 'started_at < ?', 'deleted_at IS NULL', ...filter.map((f) => f.sql)].join(' AND ');
    const usage = q.withUsage ? ", json_extract(summary, '$.usage') AS usage" : '';
    const limit = q.limit === undefined ? '' : ' LIMIT ?';
    const sql = `SELECT started_at, ${LATENCY_MS_SQL} AS latency_ms, exception IS NOT NULL AS failed${usage} FROM calls WHERE ${where}${limit}`;
    const params = [q.projectId, q.from, q.to, ...filter.flatMap((f) => f.params), ...(q.limit === undefined ? [] : [q.limit])];
    for await (const r of this.#db.stream<FactRow>(sql, params, Math.min(5000, q.limit ?? 5000))) {
      yield { startedAt: r.started_at, latencyMs: r.latency_ms, failed: r.failed === 1, usageJson: r.usage ?? null };
    }
  }

  async rollupCells(q: {
    projectId: string;
    opNames?: string[] | null;
    width: RollupWidth;
    fromCell: number;
    toCell: number;
    withUsage: boolean;
  }) {
    // Changes journaled by a write that did not refresh are folded in first, so the cells are
    // never behind the calls table. A read-only connection has no journal: the writer folds its
    // journal inside every write transaction that changes calls, before the commit it could see.
    if (!this.#db.readOnly && this.#db.get('SELECT 1 FROM stats_journal LIMIT 1')) this.#db.transaction(() => refreshStatsRollup(this.#db));
    let where = 'project_id = ? AND width = ? AND cell >= ? AND cell < ?';
    const params: unknown[] = [q.projectId, q.width, q.fromCell, q.toCell];
    if (q.opNames?.length) {
      const ops = compileFilter({ op_names: q.opNames }, q.projectId)[0]!;
      where += ` AND ${ops.sql}`;
      params.push(...ops.params);
    }
    // Without an op filter, each cell's all-ops row (statsRollup.ts): one row per cell, not per op.
    const cells = q.opNames?.length ? 'call_stats_cells' : 'call_stats_totals';
    const calls = this.#db.all<CallCellRow>(
      `SELECT cell, call_count, error_count, latency_count, latency_sum, latency_min, latency_max, latency_hist
       FROM ${cells} WHERE ${where}`,
      params,
    );
    const usage = q.withUsage
      ? this.#db.all<UsageCellRow>(
          `SELECT cell, model, sum(entry_count) AS entry_count, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
             sum(total_tokens) AS total_tokens, sum(total_tokens_count) AS total_tokens_count,
             sum(cache_read_input_tokens) AS cache_read_input_tokens, sum(cache_creation_input_tokens) AS cache_creation_input_tokens
           FROM usage_stats_cells WHERE ${where} GROUP BY cell, model HAVING sum(entry_count) > 0`,
          params,
        )
      : [];
    return {
      calls: calls.map((r): CallCell => ({
        cell: r.cell,
        count: r.call_count,
        errors: r.error_count,
        latencyCount: r.latency_count,
        latencySum: r.latency_sum,
        latencyMin: r.latency_min,
        latencyMax: r.latency_max,
        latencyHist: r.latency_hist,
      })),
      usage: usage.map((r): UsageCell => ({
        cell: r.cell,
        model: r.model,
        entries: r.entry_count,
        inputTokens: r.input_tokens,
        outputTokens: r.output_tokens,
        totalTokens: r.total_tokens,
        totalTokensCount: r.total_tokens_count,
        cacheReadInputTokens: r.cache_read_input_tokens,
        cacheCreationInputTokens: r.cache_creation_input_tokens,
      })),
    };
  }

  /** SQLite keeps stored cells (rollupCells); aggregating any bounds would scan the calls. */
  async spanCells(): Promise<null> {
    return null;
  }
}
