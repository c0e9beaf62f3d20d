/**
 * The buckets of one `/calls/stats` answer: call metrics per time bucket, usage metrics per time
 * bucket and model. They are filled from call facts (exact) and from rollup cells (5-minute
 * pre-aggregates) alike, then rendered zero-filled: every bucket for the calls, and every bucket
 * for each model that has usage anywhere in the window (the reference's CROSS JOIN of buckets
 * and models), ordered by bucket, then model.
 */
import type { CallMetric, UsageMetric } from '../../../contract/stats.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import type { Store } from '../../store/Store.js';
import type { CallCell, UsageCell } from '../../store/StatsStore.js';
import { pickPrice } from './costs.js';
import { formatMicros } from '../../core/datetime.js';
import { callMetricValue, usageMetricValue } from './statsFacts.js';
import type { CallFacts } from '../../store/StatsStore.js';
import type { UsageEntry } from '../../core/usage.js';
import { BucketAcc, type MetricPlan, type MetricSummary } from './statsMetrics.js';

/** Prices of the models met so far, loaded once per model. */
export class Pricing {
  readonly #prices = new Map<string, PriceRecord[]>();
  readonly #store: Store;
  readonly #projectId: string;
  constructor(store: Store, projectId: string) {
    this.#store = store;
    this.#projectId = projectId;
  }

  /** True when `load` has seen every one of `models`. */
  knows(models: { model: string }[]): boolean {
    return models.every((m) => this.#prices.has(m.model));
  }

  async load(models: Iterable<string>): Promise<void> {
    const missing = [...new Set(models)].filter((m) => !this.#prices.has(m));
    if (missing.length === 0) return;
    for (const m of missing) this.#prices.set(m, []);
    for (const p of await this.#store.costs.pricesFor({ projectId: this.#projectId, llmIds: missing })) this.#prices.get(p.llmId)?.push(p);
  }

  /** The price in force for `model` at `startedAt`, as include_costs picks it. */
  priceAt(model: string, startedAt: number): PriceRecord | null {
    return pickPrice({ prices: this.#prices.get(model) ?? [], llmId: model, startedAt, projectId: this.#projectId });
  }

  /** Every instant at which some loaded model's price may change. */
  changes(): number[] {
    return [...this.#prices.values()].flat().map((p) => p.effectiveDate);
  }
}

/** What a call cell contributes to each call metric. */
function callSummary(c: CallCell, metric: CallMetric): MetricSummary {
  if (metric === 'latency_ms') return { n: c.latencyCount, sum: c.latencySum, min: c.latencyMin, max: c.latencyMax, hist: c.latencyHist };
  if (metric === 'call_count') return { n: c.count, sum: c.count, min: 1, max: 1, ones: c.count, hist: new Map([[1, c.count]]) };
  const ok = c.count - c.errors;
  const hist = new Map(
    [
      [0, ok],
      [1, c.errors],
    ].filter(([, n]) => n! > 0) as [number, number][],
  );
  return { n: c.count, sum: c.errors, min: ok > 0 ? 0 : 1, max: c.errors > 0 ? 1 : 0, ones: c.errors, zeros: ok, hist };
}

/** What a usage cell contributes to each usage metric (sums and counts only). */
function usageSummary(u: UsageCell, metric: UsageMetric, price: PriceRecord | null): MetricSummary {
  const sum = (n: number, s: number): MetricSummary => ({ n, sum: s, min: null, max: null });
  switch (metric) {
    case 'input_tokens':
      return sum(u.entries, u.inputTokens);
    case 'output_tokens':
      return sum(u.entries, u.outputTokens);
    case 'total_tokens':
      return sum(u.totalTokensCount, u.totalTokens);
    case 'cache_read_input_tokens':
      return sum(u.entries, u.cacheReadInputTokens);
    case 'cache_creation_input_tokens':
      return sum(u.entries, u.cacheCreationInputTokens);
  }
  if (!price) return sum(0, 0);
  const input = u.inputTokens * price.promptTokenCost;
  const output = u.outputTokens * price.completionTokenCost;
  return sum(u.entries, metric === 'input_cost' ? input : metric === 'output_cost' ? output : input + output);
}

export class StatsBuckets {
  readonly #starts: readonly number[];
  readonly #callPlans: MetricPlan<CallMetric>[];
  readonly #usagePlans: MetricPlan<UsageMetric>[];
  readonly #calls: BucketAcc[];
  readonly #usage = new Map<string, BucketAcc[]>();

  constructor(starts: readonly number[], callPlans: MetricPlan<CallMetric>[], usagePlans: MetricPlan<UsageMetric>[]) {
    this.#starts = starts;
    this.#callPlans = callPlans;
    this.#usagePlans = usagePlans;
    this.#calls = starts.map(() => new BucketAcc(callPlans));
  }

  #model(model: string, bucket: number): BucketAcc {
    let list = this.#usage.get(model);
    if (!list) this.#usage.set(model, (list = this.#starts.map(() => new BucketAcc(this.#usagePlans))));
    return list[bucket]!;
  }

  /** One call and its usage entries into bucket `i`, priced with `pricing` (models loaded). */
  addFacts(i: number, f: CallFacts, entries: UsageEntry[], pricing: Pricing): void {
    const b = this.#calls[i]!;
    b.count += 1;
    this.#callPlans.forEach((p, k) => b.metrics[k]!.add(callMetricValue(f, p.metric)));
    for (const e of entries) {
      const u = this.#model(e.model, i);
      u.count += 1;
      const price = pricing.priceAt(e.model, f.startedAt);
      this.#usagePlans.forEach((p, k) => u.metrics[k]!.add(usageMetricValue(e, p.metric, price)));
    }
  }

  addCallCell(i: number, c: CallCell): void {
    const b = this.#calls[i]!;
    b.count += c.count;
    this.#callPlans.forEach((p, k) => b.metrics[k]!.addSummary(callSummary(c, p.metric)));
  }

  /** A usage cell into bucket `i`; `price` must hold for the whole cell. */
  addUsageCell(i: number, u: UsageCell, price: PriceRecord | null): void {
    const b = this.#model(u.model, i);
    b.count += u.entries;
    this.#usagePlans.forEach((p, k) => b.metrics[k]!.addSummary(usageSummary(u, p.metric, price)));
  }

  renderCalls(): Record<string, unknown>[] {
    return this.#calls.map((b, i) => b.render(this.#callPlans, { timestamp: formatMicros(this.#starts[i]!) }));
  }

  renderUsage(): Record<string, unknown>[] {
    const models = [...this.#usage.keys()].sort();
    return this.#starts.flatMap((start, i) => {
      const timestamp = formatMicros(start);
      return models.map((model) => this.#usage.get(model)![i]!.render(this.#usagePlans, { timestamp, model }));
    });
  }
}
