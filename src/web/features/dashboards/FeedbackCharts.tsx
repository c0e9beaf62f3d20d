/**
 * Feedback over time: how much feedback arrived per bucket, then one chart per numeric or
 * boolean payload path found by `/feedback/payload_schema` (averages, or true/false counts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TimeSeriesChart, type ChartRow } from '../../components/charts/TimeSeriesChart.js';
import { formatInteger } from '../../lib/format.js';
import { feedbackSchemaQueryOptions, feedbackStatsQueryOptions } from './dashboardQueries.js';

/** Payload paths charted at most, so a project with wide payloads stays readable. */
const MAX_PATHS = 4;

const slug = (path: string) => path.replaceAll('.', '_');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const formatScore = (v: number) => (Number.isInteger(v) ? formatInteger(v) : v.toFixed(2));

/** Feedback charts for a window, bucketed like the call charts. */
export function FeedbackCharts({
  projectId,
  start,
  end,
  granularity,
  timezone,
}: {
  projectId: string;
  start: string;
  end: string;
  granularity: number;
  timezone: string;
}) {
  const schema = useQuery({ ...feedbackSchemaQueryOptions({ project_id: projectId, start, end }), placeholderData: keepPreviousData });
  const paths = (schema.data?.paths ?? []).filter((p) => p.value_type === 'numeric' || p.value_type === 'boolean').slice(0, MAX_PATHS);
  const stats = useQuery({
    ...feedbackStatsQueryOptions({
      project_id: projectId,
      start,
      end,
      granularity,
      timezone,
      metrics: paths.map((p) => ({ json_path: p.json_path, value_type: p.value_type! })),
    }),
    enabled: schema.isSuccess,
    placeholderData: keepPreviousData,
  });
  if (!stats.data) return null;
  const buckets = stats.data.buckets;
  const rows = (pick: (b: Record<string, unknown>) => Record<string, number | null>): ChartRow[] =>
    buckets.map((b) => ({ t: new Date(String(b.timestamp)).getTime(), ...pick(b) }));
  const total = buckets.reduce((s, b) => s + (num(b.count) ?? 0), 0);
  return (
    <>
      <TimeSeriesChart
        title="Feedback"
        summary={`${formatInteger(total)} in range`}
        rows={rows((b) => ({ count: num(b.count) ?? 0 }))}
        series={[{ key: 'count', label: 'Feedback' }]}
        kind="bar"
        granularity={granularity}
        format={formatInteger}
        integer
      />
      {paths.map((p) => {
        const s = slug(p.json_path);
        const window = stats.data.window_stats[s] ?? {};
        if (p.value_type === 'boolean') {
          return (
            <TimeSeriesChart
              key={p.json_path}
              title={`Feedback: ${p.json_path}`}
              summary={`${formatInteger(window.count_true ?? 0)} true · ${formatInteger(window.count_false ?? 0)} false`}
              rows={rows((b) => ({ yes: num(b[`count_true_${s}`]) ?? 0, no: num(b[`count_false_${s}`]) ?? 0 }))}
              series={[
                { key: 'yes', label: 'true' },
                { key: 'no', label: 'false' },
              ]}
              kind="stacked"
              granularity={granularity}
              format={formatInteger}
              integer
            />
          );
        }
        return (
          <TimeSeriesChart
            key={p.json_path}
            title={`Feedback: ${p.json_path}`}
            summary={window.avg != null ? `mean ${formatScore(window.avg)}` : undefined}
            // The server fills an empty bucket's avg with 0 (as the reference does); min is null
            // there, and a gap reads better than a dip to 0.
            rows={rows((b) => ({
              avg: num(b[`min_${s}`]) === null ? null : num(b[`avg_${s}`]),
              min: num(b[`min_${s}`]),
              max: num(b[`max_${s}`]),
            }))}
            series={[
              { key: 'avg', label: 'mean' },
              { key: 'min', label: 'min' },
              { key: 'max', label: 'max' },
            ]}
            kind="line"
            granularity={granularity}
            format={formatScore}
          />
        );
      })}
    </>
  );
}
