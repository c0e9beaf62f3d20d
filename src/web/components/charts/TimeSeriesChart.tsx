/**
 * A time-bucketed chart (recharts): bars, stacked bars or lines over buckets of fixed width,
 * a tooltip with the bucket's time range and exact values, and an optional click per bucket.
 * Series colours are CSS variables (charts.css), so the chart follows light and dark.
 *
 * Empty buckets in a line (no requests, so no latency or error rate) are gaps, drawn on
 * purpose: joining the neighbours would invent values for time with no data. A value whose
 * neighbours are both empty gets a dot, so a lone bucket shows as a point instead of vanishing
 * (a line needs two points), and the tooltip says "no data" over a gap.
 */
import { useMemo, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { isolatedPoints } from './chartGaps.js';
import { formatBucketRange, formatBucketTick } from './chartTime.js';
import './charts.css';

/** One plotted series: a numeric field of the rows. */
export interface ChartSeries {
  key: string;
  label: string;
}

/** A row: bucket start (`t`, epoch ms) and the series' values. */
export type ChartRow = { t: number } & Record<string, number | null>;

/** The chart's look and data. */
export interface TimeSeriesChartProps {
  title: string;
  /** Shown beside the title (a window total, say). */
  summary?: ReactNode;
  rows: readonly ChartRow[];
  series: readonly ChartSeries[];
  kind: 'bar' | 'stacked' | 'line';
  /** Bucket width in seconds (for axis labels and the tooltip's range). */
  granularity: number;
  /** Formats values on the axis and in the tooltip. */
  format: (value: number) => string;
  /** Called with the clicked bucket's start; the tooltip then says what a click does. */
  onBucketClick?: (t: number) => void;
  clickHint?: string;
  /** Shown instead of the chart when no series has data. */
  empty?: string;
  /** Whole numbers only on the y axis (counts). */
  integer?: boolean;
}

const color = (i: number) => `var(--chart-${(i % 8) + 1})`;

/** What recharts hands a tooltip's content, as far as this tooltip reads it. */
interface TooltipState {
  active?: boolean;
  label?: unknown;
  payload?: readonly { dataKey?: unknown; name?: unknown; value?: unknown; color?: string }[];
}

function BucketTooltip({
  active,
  payload,
  label,
  granularity,
  format,
  clickHint,
}: TooltipState & { granularity: number; format: (v: number) => string; clickHint?: string }) {
  if (!active || !payload?.length) return null;
  return (
    <div className="chart-tooltip" role="tooltip">
      <div className="chart-tooltip-time">{formatBucketRange(Number(label), granularity)}</div>
      <table>
        <tbody>
          {payload.map((p) => (
            <tr key={String(p.dataKey)}>
              <td>
                <span className="chart-swatch" style={{ background: p.color }} aria-hidden="true" />
                {String(p.name)}
              </td>
              <td className="num">{typeof p.value === 'number' ? format(p.value) : <span className="muted">no data</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {clickHint && <div className="chart-tooltip-hint">{clickHint}</div>}
    </div>
  );
}

/** A titled chart of buckets over time. */
export function TimeSeriesChart({
  title,
  summary,
  rows,
  series,
  kind,
  granularity,
  format,
  onBucketClick,
  clickHint,
  empty,
  integer = false,
}: TimeSeriesChartProps) {
  const lonely = useMemo(
    () => new Map(kind === 'line' ? series.map((s) => [s.key, isolatedPoints(rows, s.key)] as const) : []),
    [kind, rows, series],
  );
  const handleClick = (state: { activeTooltipIndex?: number | string | null }) => {
    const i = Number(state.activeTooltipIndex);
    const row = Number.isInteger(i) ? rows[i] : undefined;
    if (row && onBucketClick) onBucketClick(row.t);
  };
  const common = {
    data: rows as ChartRow[],
    margin: { top: 8, right: 12, bottom: 0, left: 0 },
    onClick: onBucketClick ? handleClick : undefined,
  };
  const axes = (
    <>
      <CartesianGrid vertical={false} stroke="var(--border)" />
      <XAxis
        dataKey="t"
        tickFormatter={(t: number) => formatBucketTick(t, granularity)}
        fontSize={11}
        minTickGap={24}
        tickLine={false}
        stroke="var(--border-strong)"
        tick={{ fill: 'var(--text-muted)' }}
      />
      <YAxis
        tickFormatter={format}
        fontSize={11}
        width={64}
        tickLine={false}
        axisLine={false}
        allowDecimals={!integer}
        tick={{ fill: 'var(--text-muted)' }}
      />
      <Tooltip
        content={(props) => <BucketTooltip {...props} granularity={granularity} format={format} clickHint={clickHint} />}
        cursor={{ className: 'chart-cursor' }}
        isAnimationActive={false}
      />
    </>
  );
  return (
    <figure className={`chart card${onBucketClick ? ' chart-clickable' : ''}`} aria-label={title}>
      <figcaption>
        <strong>{title}</strong>
        {summary !== undefined && <span className="chart-summary">{summary}</span>}
      </figcaption>
      {series.length === 0 && empty ? (
        <div className="chart-empty muted">{empty}</div>
      ) : (
        <ResponsiveContainer width="100%" height={180}>
          {kind === 'line' ? (
            <LineChart {...common}>
              {axes}
              {series.map((s, i) => (
                <Line
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  stroke={color(i)}
                  dot={(props: { cx?: number; cy?: number; index?: number }) =>
                    props.index !== undefined && lonely.get(s.key)?.has(props.index) && props.cx != null && props.cy != null ? (
                      <circle key={props.index} cx={props.cx} cy={props.cy} r={3} fill={color(i)} className="chart-lone-point" />
                    ) : (
                      <g key={props.index} />
                    )
                  }
                  strokeWidth={2}
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          ) : (
            <BarChart {...common} barCategoryGap="15%">
              {axes}
              {series.map((s, i) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  fill={color(i)}
                  stackId={kind === 'stacked' ? 'a' : undefined}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          )}
        </ResponsiveContainer>
      )}
      {series.length > 1 && (
        <ul className="chart-legend" aria-label={`${title} series`}>
          {series.map((s, i) => (
            <li key={s.key}>
              <span className="chart-swatch" style={{ background: color(i) }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
