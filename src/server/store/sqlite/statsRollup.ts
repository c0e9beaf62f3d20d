/**
 * Keeps the rollup cells (`call_stats_cells`, `usage_stats_cells`; 1-hour and 5-minute wide)
 * current, the way threads.ts keeps `thread_stats`: triggers on `calls` journal every change of
 * a visible call into `stats_journal` (+1 for the new version of a row, −1 for the old one;
 * statsJournal.ts), and `refreshStatsRollup` folds the journal into the cells at the end of
 * every write transaction.
 *
 * Why a journal of deltas rather than recomputing touched cells: a busy op can have 100,000
 * calls in one cell, and recomputing it after every batch of 500 would make ingest quadratic.
 * Counts, sums and histogram bins subtract exactly, so late ends (−start-only, +ended),
 * updates and deletes are exact deltas; only latency min/max cannot be subtracted, so a cell
 * that lost its fastest or slowest finished call gets its range found again: a 5-minute cell from
 * `calls` (one indexed query), an hourly one from its 5-minute cells.
 * Each journal row is read once, into the narrowest cells; wider cells are folded from those,
 * so ingest pays per call once and per touched cell (a handful per batch) for the rest.
 *
 * Each cell is kept twice: per op (`call_stats_cells`, for requests filtered by op) and for all
 * ops together (`call_stats_totals`, for the unfiltered requests every stats chart sends). A
 * request then reads one row per cell instead of one per op and cell: a week of hourly cells of
 * a project with 30 ops is 168 rows, not 5,040, and their histograms are merged once, here.
 * Usage cells stay per op: a read sums them by model in SQL.
 */
import { usageEntries, type UsageEntry } from '../../core/usage.js';
import { addToEncoded, addToHistogram, mergeHistogram, type Histogram } from '../../core/statsHistogram.js';
import { ROLLUP_WIDTHS } from '../StatsStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** sign, project_id, op_name, started_at, latency_ms, failed, usage. */
type JournalRow = [number, string, string, number, number | null, number, string | null];

interface CellKey {
  projectId: string;
  width: number;
  cell: number;
  opName: string;
}

interface CallDelta {
  key: CellKey;
  count: number;
  errors: number;
  latencyCount: number;
  latencySum: number;
  latencyMin: number;
  latencyMax: number;
  /** A finished call left the cell, so min/max may have to be recomputed. */
  lostLatency: boolean;
  /** The least and greatest latency among the finished calls that left. */
  lostMin: number;
  lostMax: number;
  hist: Histogram;
  /** Usage sums per model, in USAGE_COLUMNS order. */
  usage: Map<string, number[]>;
}

const USAGE_COLUMNS = [
  'entry_count',
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'total_tokens_count',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
];
const USAGE_UPSERT = `INSERT INTO usage_stats_cells (project_id, width, cell, op_name, model, ${USAGE_COLUMNS.join(', ')})
  VALUES (${[...Array(5 + USAGE_COLUMNS.length)].map(() => '?').join(', ')})
  ON CONFLICT (project_id, width, cell, op_name, model) DO UPDATE SET ${USAGE_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;

const NARROW = ROLLUP_WIDTHS[ROLLUP_WIDTHS.length - 1]!;
const keyText = (k: CellKey) => `${k.projectId}\u0000${k.width}\u0000${k.cell}\u0000${k.opName}`;
const emptyCall = (key: CellKey): CallDelta => ({
  key,
  count: 0,
  errors: 0,
  latencyCount: 0,
  latencySum: 0,
  latencyMin: Infinity,
  latencyMax: -Infinity,
  lostLatency: false,
  lostMin: Infinity,
  lostMax: -Infinity,
  hist: new Map(),
  usage: new Map(),
});

/** Folds `stats_journal` into the rollup cells. Call inside a write transaction. */
export function refreshStatsRollup(db: SqliteDatabase): void {
  const rows = db
    .prepare('SELECT sign, project_id, op_name, started_at, latency_ms, failed, usage FROM stats_journal')
    .raw(true)
    .all() as JournalRow[];
  if (rows.length === 0) return;
  const calls = new Map<string, CallDelta>();
  let d: CallDelta | undefined;
  for (const [sign, projectId, opName, startedAt, latency, failed, usageJson] of rows) {
    const cell = Math.floor(startedAt / NARROW);
    // Consecutive rows are mostly of one op and cell: look the delta up only when that changes.
    if (!d || d.key.cell !== cell || d.key.opName !== opName || d.key.projectId !== projectId) {
      const key = { projectId, width: NARROW, cell, opName };
      const k = keyText(key);
      d = calls.get(k);
      if (!d) calls.set(k, (d = emptyCall(key)));
    }
    d.count += sign;
    d.errors += failed ? sign : 0;
    if (latency !== null) {
      d.latencyCount += sign;
      d.latencySum += sign * latency;
      addToHistogram(d.hist, latency, sign);
      if (sign < 0) {
        d.lostLatency = true;
        if (latency < d.lostMin) d.lostMin = latency;
        if (latency > d.lostMax) d.lostMax = latency;
      }
      if (sign > 0 && latency < d.latencyMin) d.latencyMin = latency;
      if (sign > 0 && latency > d.latencyMax) d.latencyMax = latency;
    }
    if (usageJson !== null) for (const e of usageEntries(usageJson)) addUsage(d, e, sign);
  }
  const deltas = withWiderCells(calls);
  for (const delta of deltas) {
    applyCallDelta(db, delta, PER_OP);
    for (const [model, sums] of delta.usage)
      db.run(USAGE_UPSERT, [delta.key.projectId, delta.key.width, delta.key.cell, delta.key.opName, model, ...sums]);
  }
  // After the per-op rows: a cell's totals read their latency range from those when it shrank.
  for (const delta of allOpsOf(deltas)) applyCallDelta(db, delta, ALL_OPS);
  db.run('DELETE FROM stats_journal');
}

function addUsage(d: CallDelta, e: UsageEntry, sign: number): void {
  let s = d.usage.get(e.model);
  if (!s) d.usage.set(e.model, (s = USAGE_COLUMNS.map(() => 0)));
  s[0]! += sign;
  s[1]! += sign * e.inputTokens;
  s[2]! += sign * e.outputTokens;
  // Every entry has a total under the one usage rule (core/usage.ts); the count column stays so
  // averages divide by the entries that contributed.
  s[3]! += sign * e.totalTokens;
  s[4]! += sign;
  s[5]! += sign * e.cacheReadInputTokens;
  s[6]! += sign * e.cacheCreationInputTokens;
}

/** The narrow deltas plus, for every wider width, the same deltas folded into its cells. */
function withWiderCells(narrow: Map<string, CallDelta>): CallDelta[] {
  const out = [...narrow.values()];
  for (const width of ROLLUP_WIDTHS.slice(0, -1)) {
    out.push(...folded(narrow.values(), (key) => ({ ...key, width, cell: Math.floor((key.cell * key.width) / width) })));
  }
  return out;
}

/** The deltas of every op of a cell summed into one (usage left out: it stays per op). */
function allOpsOf(deltas: CallDelta[]): CallDelta[] {
  return folded(deltas, (key) => ({ ...key, opName: '' }), { withUsage: false });
}

/** `deltas` summed per the cell `keyOf` maps each one's key to. */
function folded(deltas: Iterable<CallDelta>, keyOf: (key: CellKey) => CellKey, o = { withUsage: true }): CallDelta[] {
  const into = new Map<string, CallDelta>();
  for (const from of deltas) {
    const key = keyOf(from.key);
    const k = keyText(key);
    let d = into.get(k);
    if (!d) into.set(k, (d = emptyCall(key)));
    d.count += from.count;
    d.errors += from.errors;
    d.latencyCount += from.latencyCount;
    d.latencySum += from.latencySum;
    d.latencyMin = Math.min(d.latencyMin, from.latencyMin);
    d.latencyMax = Math.max(d.latencyMax, from.latencyMax);
    d.lostLatency ||= from.lostLatency;
    d.lostMin = Math.min(d.lostMin, from.lostMin);
    d.lostMax = Math.max(d.lostMax, from.lostMax);
    mergeHistogram(d.hist, from.hist);
    if (!o.withUsage) continue;
    for (const [model, sums] of from.usage) {
      const sum = d.usage.get(model);
      if (sum) sums.forEach((v, i) => (sum[i]! += v));
      else d.usage.set(model, [...sums]);
    }
  }
  return [...into.values()];
}

interface CallCellRow {
  call_count: number;
  error_count: number;
  latency_count: number;
  latency_sum: number;
  latency_min: number | null;
  latency_max: number | null;
  latency_hist: Buffer | null;
}

/** A table of call cells: its key, and how a cell's latency range is found again once it shrank. */
interface CellTable {
  keyOf: (key: CellKey) => unknown[];
  /** The statements on one cell, made once (they run a dozen times per commit). */
  sql: { select: string; delete: string; upsert: string };
  /** Min and max latency of the cell's finished calls (they cannot be subtracted). */
  latencyRange: (db: SqliteDatabase, key: CellKey) => { lo: number | null; hi: number | null } | undefined;
}

function cellTable(
  table: 'call_stats_cells' | 'call_stats_totals',
  keyColumns: string[],
  rest: Pick<CellTable, 'keyOf' | 'latencyRange'>,
): CellTable {
  const where = keyColumns.map((c) => `${c} = ?`).join(' AND ');
  const columns = [
    ...keyColumns,
    'call_count',
    'error_count',
    'latency_count',
    'latency_sum',
    'latency_min',
    'latency_max',
    'latency_hist',
  ];
  return {
    ...rest,
    sql: {
      select: `SELECT * FROM ${table} WHERE ${where}`,
      delete: `DELETE FROM ${table} WHERE ${where}`,
      upsert: `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    },
  };
}

const PER_OP = cellTable('call_stats_cells', ['project_id', 'width', 'cell', 'op_name'], {
  keyOf: (k) => [k.projectId, k.width, k.cell, k.opName],
  latencyRange: (db, k) =>
    k.width === NARROW
      ? db.get(
          `SELECT min((ended_at - started_at) / 1000) AS lo, max((ended_at - started_at) / 1000) AS hi FROM calls
           WHERE project_id = ? AND op_name = ? AND started_at >= ? AND started_at < ? AND deleted_at IS NULL AND ended_at IS NOT NULL`,
          [k.projectId, k.opName, k.cell * k.width, (k.cell + 1) * k.width],
        )
      : // A wider cell from the narrow cells inside it, updated first (withWiderCells): a dozen rows
        // instead of rescanning every call of the hour, which was most of an expiry batch's time
        // (docs/performance.md "Retention sweep").
        db.get(
          `SELECT min(latency_min) AS lo, max(latency_max) AS hi FROM call_stats_cells
           WHERE project_id = ? AND width = ? AND cell >= ? AND cell < ? AND op_name = ?`,
          [k.projectId, NARROW, (k.cell * k.width) / NARROW, ((k.cell + 1) * k.width) / NARROW, k.opName],
        ),
});

const ALL_OPS = cellTable('call_stats_totals', ['project_id', 'width', 'cell'], {
  keyOf: (k) => [k.projectId, k.width, k.cell],
  // From the cell's per-op rows, updated first: a few rows instead of every call of the cell.
  latencyRange: (db, k) =>
    db.get(`SELECT min(latency_min) AS lo, max(latency_max) AS hi FROM call_stats_cells WHERE project_id = ? AND width = ? AND cell = ?`, [
      k.projectId,
      k.width,
      k.cell,
    ]),
});

function applyCallDelta(db: SqliteDatabase, d: CallDelta, t: CellTable): void {
  const { key } = d;
  const params = t.keyOf(key);
  const e = db.get<CallCellRow>(t.sql.select, params);
  const count = (e?.call_count ?? 0) + d.count;
  if (count <= 0) {
    db.run(t.sql.delete, params);
    return;
  }
  const hist = addToEncoded(e?.latency_hist ?? null, d.hist);
  const latencyCount = (e?.latency_count ?? 0) + d.latencyCount;
  let min: number | null = Math.min(e?.latency_min ?? Infinity, d.latencyMin);
  let max: number | null = Math.max(e?.latency_max ?? -Infinity, d.latencyMax);
  // A cell's range changes only when a call at its edge left: calls strictly inside it leave
  // the least and greatest latency to the calls still there.
  const edgeLost =
    d.lostLatency && (e?.latency_min == null || e.latency_max == null || d.lostMin <= e.latency_min || d.lostMax >= e.latency_max);
  if (edgeLost && latencyCount > 0) {
    const exact = t.latencyRange(db, key);
    min = exact?.lo ?? null;
    max = exact?.hi ?? null;
  }
  if (latencyCount <= 0) min = max = null;
  db.run(t.sql.upsert, [
    ...params,
    count,
    (e?.error_count ?? 0) + d.errors,
    latencyCount,
    (e?.latency_sum ?? 0) + d.latencySum,
    min,
    max,
    hist.byteLength ? hist : null,
  ]);
}
