/**
 * The aggregations of `/calls/stats`: a metric's values in one bucket, accumulated either one by
 * one (exact: percentiles from the sorted values) or from pre-aggregated cells (histogram:
 * percentiles within 1 %, see statsHistogram.ts), and rendered as the reference names them.
 *
 * Column semantics follow the reference's ClickHouse query (`aggregation_selects_for_metric`
 * and its outer COALESCE): a value of null (a running call's latency, a usage entry without
 * `total_tokens`, an unpriced model's cost) is skipped by every aggregation; `sum_`, `avg_`,
 * `count_` (and `count_true_`/`count_false_`) are 0 when nothing was counted, `min_`, `max_` and
 * percentiles null. Percentile columns are `p<N>_<metric>`, N printed as given (`p99.5_…`).
 */
import type { AggregationType } from '../../../contract/stats.js';
import { HistogramSum, type Histogram } from '../../core/statsHistogram.js';
import { percentile } from '../../core/percentile.js';

/** One requested metric with its aggregations; a spec with neither gets `sum`, as the reference does. */
export interface MetricPlan<M extends string = string> {
  metric: M;
  aggregations: AggregationType[];
  percentiles: number[];
  /** Output column of each aggregation, then of each percentile. */
  columns: string[];
  percentileColumns: string[];
}

export function planMetrics<M extends string>(
  specs: { metric: M; aggregations?: AggregationType[] | null; percentiles?: number[] | null }[] | null | undefined,
): MetricPlan<M>[] {
  return (specs ?? []).map((s) => {
    const percentiles = s.percentiles ?? [];
    const aggregations = s.aggregations?.length || percentiles.length ? (s.aggregations ?? []) : (['sum'] as AggregationType[]);
    return {
      metric: s.metric,
      aggregations,
      percentiles,
      columns: aggregations.map((a) => `${a}_${s.metric}`),
      percentileColumns: percentiles.map((p) => `p${String(p)}_${s.metric}`),
    };
  });
}

/** A cell's worth of one metric, as a rollup stores it. */
export interface MetricSummary {
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
  ones?: number;
  zeros?: number;
  /** Encoded histogram (statsHistogram.ts) or a decoded one. */
  hist?: Uint8Array | Histogram | null;
}

/** One metric in one bucket. */
export class MetricAcc {
  n = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  ones = 0;
  zeros = 0;
  /** Exact values, kept only when a percentile is asked for and no histogram is in use. */
  values: number[] | null;
  hist: HistogramSum | null = null;

  constructor(keepValues: boolean) {
    this.values = keepValues ? [] : null;
  }

  add(v: number | null): void {
    if (v === null) return;
    this.n += 1;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (v === 1) this.ones += 1;
    else if (v === 0) this.zeros += 1;
    if (this.hist) this.hist.add(v);
    else this.values?.push(v);
  }

  /** Folds in a pre-aggregated cell; from then on percentiles come from the histogram. */
  addSummary(s: MetricSummary): void {
    if (s.n === 0) return;
    this.n += s.n;
    this.sum += s.sum;
    if (s.min !== null && s.min < this.min) this.min = s.min;
    if (s.max !== null && s.max > this.max) this.max = s.max;
    this.ones += s.ones ?? 0;
    this.zeros += s.zeros ?? 0;
    if (!s.hist || this.values === null) return;
    if (!this.hist) {
      this.hist = new HistogramSum();
      for (const v of this.values) this.hist.add(v);
    }
    if (s.hist instanceof Map) this.hist.addBins(s.hist);
    else this.hist.addEncoded(s.hist);
  }

  #aggregate(agg: AggregationType): number | null {
    const some = this.n > 0;
    switch (agg) {
      case 'sum':
        return this.sum;
      case 'avg':
        return some ? this.sum / this.n : 0;
      case 'min':
        return some ? this.min : null;
      case 'max':
        return some ? this.max : null;
      case 'count':
        return this.n;
      case 'count_true':
        return this.ones;
      case 'count_false':
        return this.zeros;
    }
  }

  /** The columns for this metric, named as the reference names them. */
  render(plan: MetricPlan, out: Record<string, unknown>): void {
    plan.aggregations.forEach((agg, i) => (out[plan.columns[i]!] = this.#aggregate(agg)));
    if (plan.percentiles.length === 0) return;
    const qs = plan.percentiles.map((p) => Math.round((p / 100) * 1e6) / 1e6);
    const sorted = this.hist || this.n === 0 ? null : [...(this.values ?? [])].sort((a, b) => a - b);
    const values = this.hist ? this.hist.percentiles(qs) : qs.map((q) => (sorted ? percentile(sorted, q) : null));
    plan.percentileColumns.forEach((column, i) => (out[column] = values[i]));
  }
}

/** The accumulators of one bucket: one per planned metric, plus the row count. */
export class BucketAcc {
  count = 0;
  readonly metrics: MetricAcc[];
  constructor(plans: MetricPlan[]) {
    this.metrics = plans.map((p) => new MetricAcc(p.percentiles.length > 0));
  }

  render(plans: MetricPlan[], head: Record<string, unknown>): Record<string, unknown> {
    const out = { ...head };
    plans.forEach((plan, i) => this.metrics[i]!.render(plan, out));
    out.count = this.count;
    return out;
  }
}
