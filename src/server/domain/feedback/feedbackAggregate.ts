/**
 * `/feedback/aggregate`: feedback counted per time bucket and dimension, as the newest
 * reference's `feedback_agg_query_builder.py` groups it.
 *
 * Rules taken from the reference: buckets are `time_bucket_seconds` wide, aligned to the Unix
 * epoch in UTC, and sparse (a bucket without rows is left out); without a bucket size each group
 * is one row over the whole window. `feedback_types` match by prefix (a trailing `*` is
 * dropped); `scorer_ids` / `monitor_ids` match the object id of `runnable_ref` / `trigger_ref`
 * (the last path segment before `:digest`) exactly, or by prefix with a trailing `*`;
 * `span_types` match the second-to-last segment of `weave_ref`. Rows come back ordered by bucket,
 * else by the group values.
 *
 * The counts read the typed scorer results a row carries (contract ScorerFeedbackFields):
 * `tag_counts` counts each tag, `rating_sums` / `rating_counts` add up each rating by name (a
 * client averages across buckets with them), `scored_count` counts rows with any tag or rating.
 * `tags` keeps rows carrying any of them; `rating_min` / `rating_max` keep rows whose `_rating_`
 * (the agent monitors' score) lies within, so rows without one drop out; `span_agent_names`
 * matches exactly. A row without a span field groups under "" for it (the reference's columns
 * default to the empty string).
 */
import type { FeedbackAggregateGroupBy, FeedbackAggregateReq } from '../../../contract/feedback.js';
import type { FeedbackRefsRow, FeedbackStore } from '../../store/FeedbackStore.js';
import { NO_SCORER_FEEDBACK } from '../../../contract/scorerFeedback.js';

type Bucket = {
  time_bucket_start_ms: number | null;
  group: Record<string, string>;
  total_count: number;
  scored_count: number;
  tag_counts: Record<string, number>;
  rating_counts: Record<string, number>;
  rating_sums: Record<string, number>;
};

/** `weave:///p/object/my_scorer:abc` → `my_scorer`. */
const objectIdOf = (ref: string | null): string => (ref ?? '').split('/').at(-1)!.split(':')[0]!;

const matchesId = (id: string, wanted: string[]) => wanted.some((w) => (w.endsWith('*') ? id.startsWith(w.slice(0, -1)) : id === w));

/** The reference's rating filter reads this rating. */
const RATING_KEY = '_rating_';

function dimension(row: FeedbackRefsRow, name: FeedbackAggregateGroupBy): string {
  switch (name) {
    case 'scorer_id':
      return objectIdOf(row.runnableRef);
    case 'span_agent_name':
      return row.spanAgentName ?? NO_SCORER_FEEDBACK.span_agent_name!;
    case 'span_agent_version':
      return row.spanAgentVersion ?? NO_SCORER_FEEDBACK.span_agent_version!;
    case 'span_status_code':
      return row.spanStatusCode ?? NO_SCORER_FEEDBACK.span_status_code!;
  }
}

function keep(row: FeedbackRefsRow, req: FeedbackAggregateReq): boolean {
  if (req.feedback_types?.length && !req.feedback_types.some((t) => row.feedbackType.startsWith(t.replace(/\*+$/, '')))) return false;
  if (req.monitor_ids?.length && !matchesId(objectIdOf(row.triggerRef), req.monitor_ids)) return false;
  if (req.scorer_ids?.length && !matchesId(objectIdOf(row.runnableRef), req.scorer_ids)) return false;
  if (req.span_types?.length && !req.span_types.includes(row.weaveRef.split('/').at(-2) as 'agent_turn')) return false;
  if (req.span_agent_names?.length && !req.span_agent_names.includes(row.spanAgentName ?? '')) return false;
  if (req.tags?.length && !row.scorerTags.some((t) => req.tags!.includes(t))) return false;
  if (req.rating_min != null || req.rating_max != null) {
    const rating = row.scorerRatings[RATING_KEY];
    if (typeof rating !== 'number') return false;
    if (req.rating_min != null && rating < req.rating_min) return false;
    if (req.rating_max != null && rating > req.rating_max) return false;
  }
  return true;
}

export async function feedbackAggregate(store: FeedbackStore, req: FeedbackAggregateReq) {
  const groupBy = req.group_by ?? [];
  const width = req.time_bucket_seconds ?? null;
  const buckets = new Map<string, Bucket>();
  const rows = store.feedbackRefsInWindow({ projectId: req.project_id, start: req.after_ms * 1000, end: req.before_ms * 1000 });
  for await (const row of rows) {
    if (!keep(row, req)) continue;
    const ms = Math.floor(row.createdAt / 1000);
    const start = width === null ? null : Math.floor(ms / (width * 1000)) * width * 1000;
    const group = Object.fromEntries(groupBy.map((g) => [g, dimension(row, g)]));
    const key = JSON.stringify([start, groupBy.map((g) => group[g])]);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { time_bucket_start_ms: start, group, total_count: 0, scored_count: 0, tag_counts: {}, rating_counts: {}, rating_sums: {} };
      buckets.set(key, bucket);
    }
    bucket.total_count += 1;
    const ratings = Object.entries(row.scorerRatings).filter(([, v]) => typeof v === 'number');
    if (row.scorerTags.length || ratings.length) bucket.scored_count += 1;
    for (const tag of row.scorerTags) bucket.tag_counts[tag] = (bucket.tag_counts[tag] ?? 0) + 1;
    for (const [name, value] of ratings) {
      bucket.rating_counts[name] = (bucket.rating_counts[name] ?? 0) + 1;
      bucket.rating_sums[name] = (bucket.rating_sums[name] ?? 0) + value;
    }
  }
  const ordered = [...buckets.values()].sort((a, b) => {
    if (width !== null) return a.time_bucket_start_ms! - b.time_bucket_start_ms!;
    const ka = groupBy.map((g) => a.group[g]!).join('\u0000');
    const kb = groupBy.map((g) => b.group[g]!).join('\u0000');
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return { time_bucket_seconds: width, after_ms: req.after_ms, before_ms: req.before_ms, buckets: ordered };
}
