/**
 * The call-statistics part of the storage seam (see Store.ts for the contract every store keeps).
 *
 * `/calls/stats` is computed in domain/calls/callStats.ts from two kinds of data a backend offers:
 * - `callFacts`: the facts of each matching call (the exact path, any filter);
 * - `rollupCells`: 1-hour and 5-minute cells pre-aggregated per op (and per model for
 *   usage), kept current inside every write transaction, so a month of a busy project is a
 *   few thousand hour rows; 5-minute cells fill in where hour cells do not fit the buckets.
 *   A backend without such cells returns null and every request takes the exact path.
 * - `spanCells`: cells of any bounds, for a backend that aggregates at read time (ClickHouse):
 *   the request's buckets themselves, in one scan, instead of hour and 5-minute cells plus
 *   exact scans of the edges, each of which would be a scan of its own there.
 * Cells hold what merges exactly (counts, sums, latency min/max) plus a latency histogram
 * (core/statsHistogram.ts); they never hold costs, since prices may change after ingest.
 */
import type { CallsFilter } from '../../contract/calls.js';

/** The facts of one visible call, as the stores read them. */
export interface CallFacts {
  startedAt: number;
  /** Whole milliseconds, null while running. */
  latencyMs: number | null;
  failed: boolean;
  /** `summary.usage` as JSON text, when asked for and present. */
  usageJson?: string | null;
}

/**
 * Widths of the rollup cells, widest first: 1 hour and 5 minutes, in microseconds. Cell i of
 * width w covers [i·w, (i+1)·w) of started_at.
 */
export const ROLLUP_WIDTHS = [3_600_000_000, 300_000_000] as const;
export type RollupWidth = (typeof ROLLUP_WIDTHS)[number];

/** The visible calls of one op (or of every op, rollupCells says when) that started in one cell. */
export interface CallCell {
  cell: number;
  count: number;
  errors: number;
  /** Over finished calls only. */
  latencyCount: number;
  latencySum: number;
  latencyMin: number | null;
  latencyMax: number | null;
  /** Encoded latency histogram. */
  latencyHist: Uint8Array | null;
}

/** The usage entries of one model in the calls of one op that started in one cell. */
export interface UsageCell {
  cell: number;
  model: string;
  entries: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum and count of the entries that report total_tokens. */
  totalTokens: number;
  totalTokensCount: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

/** Which calls' facts to read: the visible calls matching `filter` that started in [from, to) (epoch µs). */
export interface CallFactsQuery {
  projectId: string;
  filter?: CallsFilter | null;
  from: number;
  to: number;
  withUsage: boolean;
  /** At most this many (any of them): enough to learn whether a range has calls at all. */
  limit?: number;
}

export interface StatsStore {
  callFacts(q: CallFactsQuery): AsyncIterable<CallFacts>;
  /**
   * The cells of `width` in [fromCell, toCell) of the ops matching `opNames` (all ops when null;
   * entries ending in ":*" match every version), or null when this backend keeps no rollup. A
   * cell may come as one row per op or as one row for all of them (SQLite keeps both, and answers
   * an unfiltered request from the latter): callers add up the rows of a cell.
   */
  rollupCells(q: {
    projectId: string;
    opNames?: string[] | null;
    width: RollupWidth;
    fromCell: number;
    toCell: number;
    withUsage: boolean;
  }): Promise<{ calls: CallCell[]; usage: UsageCell[] } | null>;
  /**
   * The visible calls of the ops matching `opNames` that started in each span
   * [bounds[i], bounds[i+1]) of the ascending `bounds`, as cells numbered by span (`cell` = i),
   * or null when this backend answers from stored cells only (rollupCells).
   */
  spanCells(q: {
    projectId: string;
    opNames?: string[] | null;
    bounds: number[];
    withUsage: boolean;
  }): Promise<{ calls: CallCell[]; usage: UsageCell[] } | null>;
}
