/**
 * ClickHouse implementation of StatsStore. Call facts stream from the merged calls; the rollup
 * cells are not stored but computed per request in SQL over `calls FINAL` (shared/design/
 * clickhouse.md §4.4), grouped by cell, so nothing has to be kept in step with writes across
 * replicas and a cell always equals the facts (late ends, re-sent ends, deletes included).
 * Cells are summed over ops (the interface allows one row or several per cell). The latency
 * histogram is binned in SQL with core/statsHistogram.ts's constants; usage cells follow the one
 * usage rule (usageSql.ts). Prices are never in cells: the domain prices them (CostsStore).
 */
import type { CallsFilter } from '../../../contract/calls.js';
import { addToEncoded, HISTOGRAM_KEY } from '../../core/statsHistogram.js';
import type { CallCell, CallFacts, RollupWidth, StatsStore, UsageCell } from '../StatsStore.js';
import { num, numOrNull, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { compileCallsWhere } from './callsList.js';
import {
  ENTRY_INPUT_TOKENS,
  ENTRY_OUTPUT_TOKENS,
  ENTRY_TOTAL_TOKENS,
  USAGE_ENTRIES,
  USAGE_ENTRY_IS_OBJECT,
  usageCountSql,
} from './usageSql.js';
import { USAGE_RULE } from '../../core/usage.js';

/** The histogram bin key of latency `lat` (core/statsHistogram.ts `binKey`), with its constants as parameters. */
// `if` evaluates both branches in ClickHouse, so the log never sees 0.
const BIN_KEY = `(if(lat < 0, -1, 1) * if(abs(lat) <= {exact:Int64}, abs(lat),
  {exact:Int64} + 1 + toInt64(ceil(log(greatest(abs(lat), 1)) / {lg:Float64})) - {lb:Int64}))`;

interface CallCellRow {
  cell: string;
  n: string;
  errors: string;
  latency_count: string;
  latency_sum: string | null;
  latency_min: string | null;
  latency_max: string | null;
  hist_keys: string[];
  hist_counts: string[];
}

interface UsageCellRow {
  cell: string;
  model: string;
  entries: string;
  input_tokens: string;
  output_tokens: string;
  total_tokens: string;
  cache_read: string;
  cache_creation: string;
}

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

  async rollupCells(q: {
    projectId: string;
    opNames?: string[] | null;
    width: RollupWidth;
    fromCell: number;
    toCell: number;
    withUsage: boolean;
  }): Promise<{ calls: CallCell[]; usage: UsageCell[] }> {
    const { where, params } = compileCallsWhere({ projectId: q.projectId, filter: q.opNames?.length ? { op_names: q.opNames } : null });
    const inCells = `${where} AND started_at >= {from:Int64} AND started_at < {to:Int64}`;
    const all = {
      ...params,
      w: q.width,
      from: q.fromCell * q.width,
      to: q.toCell * q.width,
      exact: HISTOGRAM_KEY.exactLimit,
      lg: HISTOGRAM_KEY.logGamma,
      lb: HISTOGRAM_KEY.logBase,
    };
    const callRows = await this.#db.all<CallCellRow>(
      `SELECT cell, count() AS n, countIf(failed) AS errors, countIf(lat IS NOT NULL) AS latency_count, sum(lat) AS latency_sum,
         min(lat) AS latency_min, max(lat) AS latency_max,
         sumMapIf([${BIN_KEY}], [toUInt64(1)], lat IS NOT NULL) AS hist, hist.1 AS hist_keys, hist.2 AS hist_counts
       FROM (SELECT intDiv(started_at, {w:Int64}) AS cell, exception IS NOT NULL AS failed, intDiv(ended_at - started_at, 1000) AS lat
             FROM calls FINAL WHERE ${inCells})
       GROUP BY cell ORDER BY cell`,
      all,
    );
    const calls = callRows.map((r): CallCell => {
      const latencyCount = num(r.latency_count);
      const hist = new Map<number, number>();
      r.hist_keys.forEach((k, i) => hist.set(num(k), num(r.hist_counts[i])));
      return {
        cell: num(r.cell),
        count: num(r.n),
        errors: num(r.errors),
        latencyCount,
        latencySum: latencyCount ? num(r.latency_sum) : 0,
        latencyMin: latencyCount ? numOrNull(r.latency_min) : null,
        latencyMax: latencyCount ? numOrNull(r.latency_max) : null,
        latencyHist: latencyCount ? addToEncoded(null, hist) : null,
      };
    });
    if (!q.withUsage) return { calls, usage: [] };
    const usageRows = await this.#db.all<UsageCellRow>(
      `SELECT cell, u.1 AS model, count() AS entries, sum(${ENTRY_INPUT_TOKENS}) AS input_tokens, sum(${ENTRY_OUTPUT_TOKENS}) AS output_tokens,
         sum(${ENTRY_TOTAL_TOKENS}) AS total_tokens, sum(${usageCountSql(USAGE_RULE.cacheRead)}) AS cache_read,
         sum(${usageCountSql(USAGE_RULE.cacheCreation)}) AS cache_creation
       FROM (SELECT intDiv(started_at, {w:Int64}) AS cell, arrayJoin(${USAGE_ENTRIES}) AS u FROM calls FINAL WHERE ${inCells})
       WHERE ${USAGE_ENTRY_IS_OBJECT}
       GROUP BY cell, model ORDER BY cell, model`,
      all,
    );
    const usage = usageRows.map((r): UsageCell => ({
      cell: num(r.cell),
      model: r.model,
      entries: num(r.entries),
      inputTokens: num(r.input_tokens),
      outputTokens: num(r.output_tokens),
      totalTokens: num(r.total_tokens),
      // Every entry has a total under the one usage rule (reported, else input + output).
      totalTokensCount: num(r.entries),
      cacheReadInputTokens: num(r.cache_read),
      cacheCreationInputTokens: num(r.cache_creation),
    }));
    return { calls, usage };
  }
}
