/**
 * Summary charts of one run: pass-rate bars of every binary scorer in one chart, and for each
 * continuous scorer a histogram of its values with the mean marked. Colours come from the theme
 * through CSS (evaluations.css), so the charts follow light and dark.
 */
import { useQuery } from '@tanstack/react-query';
import { memo, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { EvalResultsEvaluationSummary } from '../../../../contract/evalResults.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { formatInteger } from '../../../lib/format.js';
import { runScoresQueryOptions } from '../evaluationQueries.js';
import { formatMetric, histogram, scoreValue, statsFor, toNumber, type ScoreMetric } from '../scoreModel.js';
import '../evaluations.css';

const tooltipStyle = {
  background: 'var(--bg-raised)',
  border: '1px solid var(--border)',
  borderRadius: 6,
  fontSize: 12,
  color: 'var(--text)',
};

/** Charts for every metric of a run (memoized: the results' filters and sort do not touch them). */
export const ScoreCharts = memo(function ScoreCharts({
  projectId,
  runId,
  summary,
  metrics,
}: {
  projectId: string;
  runId: string;
  summary: EvalResultsEvaluationSummary | undefined;
  metrics: ScoreMetric[];
}) {
  const binary = metrics.filter((m) => m.type === 'binary');
  const continuous = metrics.filter((m) => m.type === 'continuous');
  if (!binary.length && !continuous.length) return null;
  return (
    <section className="eval-charts" aria-label="Score summary">
      {binary.length > 0 && <PassRateChart summary={summary} metrics={binary} />}
      {continuous.map((m) => (
        <HistogramChart key={m.field} projectId={projectId} runId={runId} summary={summary} metric={m} />
      ))}
    </section>
  );
});

/** Horizontal bars: the share of trials each binary scorer passed. */
function PassRateChart({ summary, metrics }: { summary: EvalResultsEvaluationSummary | undefined; metrics: ScoreMetric[] }) {
  const data = metrics.map((m) => {
    const s = statsFor(summary, m);
    return {
      name: m.label,
      rate: (s?.pass_rate ?? 0) * 100,
      label: s ? `${formatMetric(s.pass_rate, 'binary')} (${s.pass_true_count}/${s.pass_known_count})` : '—',
    };
  });
  return (
    <figure className="eval-chart card" aria-label="Pass rates">
      <figcaption>
        <strong>Pass rate</strong>
        <span className="muted small"> binary scorers</span>
      </figcaption>
      <BarChart
        width={320}
        height={Math.max(90, 34 * data.length + 40)}
        data={data}
        layout="vertical"
        margin={{ top: 4, right: 96, bottom: 4, left: 4 }}
      >
        <CartesianGrid horizontal={false} className="eval-grid" />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 50, 100]} tickFormatter={(v: number) => `${v}%`} fontSize={11} />
        <YAxis type="category" dataKey="name" width={90} fontSize={12} tickLine={false} />
        <Bar dataKey="rate" className="eval-bar-pass" isAnimationActive={false} barSize={18} background={{ className: 'eval-bar-track' }}>
          <LabelList dataKey="label" position="right" className="eval-bar-label" fontSize={12} />
        </Bar>
      </BarChart>
    </figure>
  );
}

/** A histogram of a continuous scorer's values over the run, with the mean as a line. */
function HistogramChart({
  projectId,
  runId,
  summary,
  metric,
}: {
  projectId: string;
  runId: string;
  summary: EvalResultsEvaluationSummary | undefined;
  metric: ScoreMetric;
}) {
  const scores = useQuery(runScoresQueryOptions({ projectId, runId }));
  const stats = statsFor(summary, metric);
  const bins = useMemo(() => {
    const values = (scores.data?.rows ?? []).flatMap((r) =>
      r.evaluations.flatMap((e) => e.trials.flatMap((t) => toNumber(scoreValue(t, metric)) ?? [])),
    );
    return histogram(values).map((b) => ({ ...b, mid: (b.from + b.to) / 2, name: `${b.from.toFixed(2)}–${b.to.toFixed(2)}` }));
  }, [scores.data, metric]);
  const mean = stats?.numeric_mean ?? null;

  return (
    <figure className="eval-chart card" aria-label={`${metric.label} distribution`}>
      <figcaption>
        <strong>{metric.label}</strong>
        <span className="muted small">
          {' '}
          mean {formatMetric(mean, 'continuous')} · {formatInteger(stats?.numeric_count ?? 0)} scores
        </span>
      </figcaption>
      {scores.isPending ? (
        <div className="eval-chart-loading">
          <Spinner label={`Loading ${metric.label} scores`} />
        </div>
      ) : (
        <BarChart width={320} height={150} data={bins} margin={{ top: 14, right: 12, bottom: 0, left: -18 }} barCategoryGap={1}>
          <CartesianGrid vertical={false} className="eval-grid" />
          <XAxis
            dataKey="mid"
            type="number"
            domain={bins.length ? [bins[0]!.from, bins[bins.length - 1]!.to] : [0, 1]}
            tickFormatter={(v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1))}
            tickCount={6}
            fontSize={11}
            padding={{ left: 0, right: 0 }}
          />
          <YAxis allowDecimals={false} fontSize={11} />
          <Tooltip
            cursor={{ className: 'eval-cursor' }}
            contentStyle={tooltipStyle}
            labelFormatter={(_label, payload) => (payload[0]?.payload as { name?: string } | undefined)?.name ?? ''}
            formatter={(v) => [v, 'trials']}
          />
          <Bar
            dataKey="count"
            isAnimationActive={false}
            className="eval-bar"
            barSize={Math.max(4, Math.floor((280 / Math.max(bins.length, 1)) * 0.85))}
          />
          {mean !== null && (
            <ReferenceLine
              x={mean}
              className="eval-mean"
              strokeDasharray="4 3"
              label={{ value: 'mean', position: 'top', fontSize: 11, className: 'eval-mean-label' }}
            />
          )}
        </BarChart>
      )}
    </figure>
  );
}
