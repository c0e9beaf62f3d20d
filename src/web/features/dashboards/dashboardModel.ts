/**
 * Turns `/calls/stats` and `/feedback/stats` buckets into chart rows (one per bucket, numbers
 * only), and a bucket into a link to the calls table showing that bucket's calls.
 */
import type { CallStatsRes } from '../../../contract/stats.js';
import { writeCallsView, DEFAULT_COLUMNS } from '../../entities/calls/callsViewState.js';
import type { FilterClause } from '../../entities/calls/filterModel.js';

/** One time bucket of the call charts. */
export interface CallRow {
  /** Bucket start, epoch ms. */
  t: number;
  requests: number;
  errors: number;
  /** Percent of requests that failed; null when there were none. */
  errorRate: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** One time bucket of a per-model chart: `t` plus one number per model. */
export type ModelRow = { t: number } & Record<string, number>;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const time = (v: unknown): number => new Date(String(v)).getTime();

/** Call rows from `call_buckets` (the call_count, error_count and latency percentile columns). */
export function toCallRows(res: CallStatsRes): CallRow[] {
  return res.call_buckets.map((b) => {
    const requests = num(b.sum_call_count ?? b.count);
    const errors = num(b.sum_error_count);
    return {
      t: time(b.timestamp),
      requests,
      errors,
      errorRate: requests > 0 ? (100 * errors) / requests : null,
      p50: numOrNull(b.p50_latency_ms),
      p95: numOrNull(b.p95_latency_ms),
      p99: numOrNull(b.p99_latency_ms),
    };
  });
}

/**
 * Per-model rows of one usage column (`sum_total_tokens`, `sum_total_cost`), one row per call
 * bucket (so the x axis matches the other charts), models ordered by their window total.
 */
export function toModelRows(res: CallStatsRes, column: string): { rows: ModelRow[]; models: string[] } {
  const byTime = new Map<number, ModelRow>(res.call_buckets.map((b) => [time(b.timestamp), { t: time(b.timestamp) } as ModelRow]));
  const totals = new Map<string, number>();
  for (const b of res.usage_buckets) {
    const model = String(b.model ?? 'unknown');
    const value = num(b[column]);
    if (value === 0) continue;
    const t = time(b.timestamp);
    const row = byTime.get(t) ?? ({ t } as ModelRow);
    row[model] = (row[model] ?? 0) + value;
    byTime.set(t, row);
    totals.set(model, (totals.get(model) ?? 0) + value);
  }
  const models = [...totals].sort((a, b) => b[1] - a[1]).map(([m]) => m);
  const rows = [...byTime.values()].sort((a, b) => a.t - b.t);
  for (const row of rows) for (const m of models) row[m] ??= 0;
  return { rows, models };
}

/** Sum of one numeric field over rows. */
export function sumOf<R>(rows: readonly R[], pick: (r: R) => number | null): number {
  return rows.reduce((s, r) => s + (pick(r) ?? 0), 0);
}

/**
 * The calls table URL for one bucket: `started_at` ≥ the bucket start and < its end (both
 * clipped to the dashboard's window, so the table counts what the bar counted), plus the op.
 */
export function callsWindowHref({
  projectId,
  from,
  to,
  op,
  rootsOnly,
}: {
  projectId: string;
  from: number;
  to: number;
  op: string | null;
  rootsOnly: boolean;
}): string {
  const clauses: FilterClause[] = [
    { field: 'started_at', op: 'gte', value: new Date(from).toISOString() },
    { field: 'started_at', op: 'lt', value: new Date(to).toISOString() },
  ];
  if (op) clauses.push({ field: 'op_name', op: 'eq', value: op });
  const params = writeCallsView({
    clauses,
    sort: { field: 'started_at', direction: 'desc' },
    columns: [...DEFAULT_COLUMNS],
    since: null,
    search: null,
    rootsOnly,
    // The dashboards count every call, Weft's own included: the drill-in lists the same calls.
    weftCalls: true,
    live: false,
  });
  return `/${projectId}/calls?${params.toString()}`;
}
