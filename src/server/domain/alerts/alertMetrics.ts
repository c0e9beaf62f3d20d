/**
 * The value of an alert rule's metric over its window, read from what the store already keeps:
 * call facts for error rate and latency, `/calls/stats` pricing for cost, scorer feedback for a
 * score mean, scorer and reviewer feedback for a judge's κ (docs/alerts.md "Metrics"). Null when the window holds nothing to measure: a rule
 * then keeps its state rather than fire or resolve on no data.
 */
import type { AlertSpec } from '../../store/AlertsStore.js';
import type { Store } from '../../store/Store.js';
import { formatMicros } from '../../core/datetime.js';
import { callStats } from '../calls/callStats.js';
import { judgeAgreement } from '../feedback/judgeAgreement.js';

const MINUTE_MICROS = 60_000_000;
const DAY_MINUTES = 24 * 60;
export const SCORER_FEEDBACK_PREFIX = 'wandb.runnable.';

/**
 * Calls of the op at any version (SDKs log an op ref) or by its bare name (OpenTelemetry and
 * raw clients): the filter form `/calls/stats` and the call facts take.
 */
const opFilter = (projectId: string, opName: string | null) =>
  opName ? { op_names: [opName, `weave:///${projectId}/op/${opName}:*`] } : null;

/** The nearest-rank percentile of ascending values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The number at a dotted path of a payload (booleans count 1 and 0), or null. */
export function numberAt(payload: unknown, path: string): number | null {
  let v: unknown = payload;
  for (const part of path.split('.').filter(Boolean)) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[part];
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export async function alertMetricValue(store: Store, projectId: string, spec: AlertSpec, now: number): Promise<number | null> {
  const from = now - spec.windowMinutes * MINUTE_MICROS;
  const filter = opFilter(projectId, spec.opName);
  switch (spec.metric) {
    case 'error_rate':
    case 'latency_p95_ms': {
      let count = 0;
      let errors = 0;
      const latencies: number[] = [];
      for await (const f of store.stats.callFacts({ projectId, filter, from, to: now, withUsage: false })) {
        count++;
        if (f.failed) errors++;
        if (f.latencyMs !== null) latencies.push(f.latencyMs);
      }
      if (spec.metric === 'error_rate') return count ? errors / count : null;
      return latencies.length
        ? percentile(
            latencies.sort((a, b) => a - b),
            95,
          )
        : null;
    }
    case 'cost_per_day_usd': {
      const res = await callStats(
        store,
        {
          project_id: projectId,
          start: formatMicros(from),
          end: formatMicros(now),
          granularity: spec.windowMinutes * 60,
          usage_metrics: [{ metric: 'total_cost', aggregations: ['sum'] }],
          filter,
        },
        { now },
      );
      const total = res.usage_buckets.reduce((sum, b) => sum + (typeof b.sum_total_cost === 'number' ? b.sum_total_cost : 0), 0);
      // The window's spend at the rate of a whole day.
      return (total * DAY_MINUTES) / spec.windowMinutes;
    }
    case 'score_mean': {
      if (!spec.scorer) return null;
      const path = spec.fieldPath || 'output';
      let n = 0;
      let sum = 0;
      for await (const row of store.feedback.feedbackPayloads({
        projectId,
        start: from,
        end: now,
        feedbackType: SCORER_FEEDBACK_PREFIX + spec.scorer,
      })) {
        const v = numberAt(row.payload, path);
        if (v === null) continue;
        n++;
        sum += v;
      }
      return n ? sum / n : null;
    }
    case 'judge_kappa': {
      // κ of the scorer's answers given in the window against every reviewer's on those calls.
      const { judges } = await judgeAgreement(store, projectId, { since: from });
      const row = judges.find((j) => j.scorer === spec.scorer && (spec.fieldPath ? j.field === spec.fieldPath : true));
      return row?.kappa ?? null;
    }
  }
}
