/**
 * `/feedback/stats` (time buckets of payload metrics) and `/feedback/payload_schema` (which
 * payload paths exist), computed from the rows the store streams. docs/api/evaluations.md §4.
 *
 * Decisions where the reference is not spelled out:
 * - Granularity and buckets are those of `/calls/stats` (statsTime.ts): aligned to local time
 *   in the requested zone, DST-correct, the first at or before `start`; every bucket in the
 *   window is listed. An unknown zone is 400 here (the contract takes any string).
 * - Keys are `<agg>_<slug>` and `p<N>_<slug>` (one underscore), the slug being the json_path
 *   with dots as `_`: `avg_output_score`, `p95_output_score`, as the reference's
 *   tests/trace_server/query_builder/test_feedback_stats.py expects. In a bucket without
 *   values avg is 0 (the reference's `COALESCE(avg, 0)`), as are sum/count/count_true/
 *   count_false; min, max and percentiles stay null. window_stats keep null averages.
 * - A numeric metric reads JSON numbers and numeric strings; a boolean one true/false (also
 *   as strings); a categorical one any scalar, counted with `count`.
 * - payload_schema samples the newest `sample_limit` rows (default 2000, at most 5000); a
 *   path whose values disagree in type gets `value_type: null`.
 */
import type {
  FeedbackAggregation,
  FeedbackMetricSpec,
  FeedbackPayloadSchemaReq,
  FeedbackStatsReq,
  FeedbackStatsRes,
} from '../../../contract/feedback.js';
import { BadRequestError } from '../../errors.js';
import type { FeedbackStore } from '../../store/FeedbackStore.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';
import { percentile } from '../../core/percentile.js';
import { bucketIndex, bucketStarts, chooseGranularity } from '../stats/statsTime.js';

const SECOND = 1_000_000;

/** The window as epoch microseconds, up to `now` when open; 400 when it is empty or unreadable. */
function resolveWindow(start: string, end: string | null | undefined, now: number): [number, number] {
  const from = parseIsoToMicros(start);
  const to = end ? parseIsoToMicros(end) : now;
  if (from === null || to === null) throw new BadRequestError('start and end must be ISO 8601 datetimes');
  if (to <= from) throw new BadRequestError('end must be after start');
  return [from, to];
}

/** 400 unless `timeZone` is an IANA zone name the runtime knows. */
function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new BadRequestError(`Unknown time zone "${timeZone}"; use an IANA name such as "Europe/Paris"`);
  }
}

/** A metric's value in one payload, typed as the spec asks, or undefined. */
function readMetric(payload: unknown, spec: FeedbackMetricSpec): number | boolean | string | undefined {
  let v: unknown = payload;
  for (const key of spec.json_path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  if (spec.value_type === 'numeric') {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  }
  if (spec.value_type === 'boolean') return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

const DEFAULT_AGGREGATIONS: Record<FeedbackMetricSpec['value_type'], FeedbackAggregation[]> = {
  numeric: ['avg', 'min', 'max'],
  boolean: ['count_true', 'count_false'],
  categorical: ['count'],
};

/** Each requested aggregation and percentile of one metric over some values. */
function summarize(spec: FeedbackMetricSpec, values: (number | boolean | string)[]): Record<string, number | null> {
  const nums = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  const sum = nums.reduce((a, b) => a + b, 0);
  const out: Record<string, number | null> = {};
  for (const agg of spec.aggregations?.length ? spec.aggregations : DEFAULT_AGGREGATIONS[spec.value_type]) {
    out[agg] = {
      sum,
      avg: nums.length ? sum / nums.length : null,
      min: nums.length ? nums[0]! : null,
      max: nums.length ? nums[nums.length - 1]! : null,
      count: values.length,
      count_true: values.filter((v) => v === true).length,
      count_false: values.filter((v) => v === false).length,
    }[agg];
  }
  if (spec.value_type === 'numeric') for (const p of spec.percentiles ?? []) out[`p${p}`] = percentile(nums, p / 100);
  return out;
}

const slugOf = (jsonPath: string) => jsonPath.replace(/\./g, '_');

/** `/feedback/stats`; `now` (the services clock) ends a window the request leaves open. */
export async function feedbackStats(store: FeedbackStore, req: FeedbackStatsReq, now: number): Promise<FeedbackStatsRes> {
  const [start, end] = resolveWindow(req.start, req.end, now);
  const timezone = req.timezone ?? 'UTC';
  const granularity = chooseGranularity((end - start) / SECOND, req.granularity);
  checkTimeZone(timezone);
  const starts = bucketStarts({ start, end, granularity, timeZone: timezone });
  const metrics = req.metrics ?? [];
  const buckets = starts.map(() => ({
    count: 0,
    values: metrics.map(() => [] as (number | boolean | string)[]),
  }));
  const all = metrics.map(() => [] as (number | boolean | string)[]);
  const rows = store.feedbackPayloads({
    projectId: req.project_id,
    start,
    end,
    feedbackType: req.feedback_type,
    triggerRef: req.trigger_ref,
  });
  for await (const row of rows) {
    const bucket = buckets[bucketIndex(starts, row.createdAt)]!;
    bucket.count += 1;
    metrics.forEach((spec, i) => {
      const v = readMetric(row.payload, spec);
      if (v === undefined) return;
      bucket.values[i]!.push(v);
      all[i]!.push(v);
    });
  }
  return {
    start: formatMicros(start),
    end: formatMicros(end),
    granularity,
    timezone,
    buckets: buckets.map((b, index) => {
      const out: Record<string, unknown> = { timestamp: formatMicros(starts[index]!), count: b.count };
      metrics.forEach((spec, i) => {
        for (const [agg, v] of Object.entries(summarize(spec, b.values[i]!))) {
          out[`${agg}_${slugOf(spec.json_path)}`] = agg === 'avg' ? (v ?? 0) : v;
        }
      });
      return out;
    }),
    window_stats: Object.fromEntries(metrics.map((spec, i) => [slugOf(spec.json_path), summarize(spec, all[i]!)])),
  };
}

type ValueType = 'numeric' | 'boolean' | 'categorical' | null;

const typeOf = (v: unknown): ValueType =>
  typeof v === 'number' ? 'numeric' : typeof v === 'boolean' ? 'boolean' : typeof v === 'string' ? 'categorical' : null;

/** Records every leaf path of a payload with the type of its value. */
function collectLeaves(value: unknown, path: string, out: Map<string, ValueType | 'mixed'>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) collectLeaves(v, path ? `${path}.${k}` : k, out);
    return;
  }
  if (!path) return;
  const type = typeOf(value);
  const seen = out.get(path);
  out.set(path, seen === undefined || seen === type ? type : 'mixed');
}

/** `/feedback/payload_schema`; `now` ends a window the request leaves open. */
export async function feedbackPayloadSchema(store: FeedbackStore, req: FeedbackPayloadSchemaReq, now: number) {
  const [start, end] = resolveWindow(req.start, req.end, now);
  const newest = Math.min(req.sample_limit ?? 2000, 5000);
  const leaves = new Map<string, ValueType | 'mixed'>();
  const rows = store.feedbackPayloads({
    projectId: req.project_id,
    start,
    end,
    feedbackType: req.feedback_type,
    triggerRef: req.trigger_ref,
    newest,
  });
  for await (const row of rows) collectLeaves(row.payload, '', leaves);
  const paths = [...leaves].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { paths: paths.map(([json_path, t]) => ({ json_path, value_type: t === 'mixed' ? null : t })) };
}
