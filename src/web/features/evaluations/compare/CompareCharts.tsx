/**
 * One small bar chart per scorer, the runs side by side: pass rate (%) for binary scores, the
 * mean for numeric ones. The baseline's bar is outlined so the others read against it.
 */
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CompareRunFigures } from './CompareSummary.js';
import { formatMetric, statsFor, summaryValue, type ScoreMetric } from '../scoreModel.js';
// The `.chart` card and its parts; a direct link to a comparison may be the first page loaded.
import '../../../components/charts/charts.css';
import '../evaluations.css';

const color = (i: number) => `var(--chart-${(i % 8) + 1})`;

/** Per-scorer charts. */
export function CompareCharts({ runs, baselineId, metrics }: { runs: CompareRunFigures[]; baselineId: string; metrics: ScoreMetric[] }) {
  const shown = metrics.filter((m) => m.type !== 'text');
  if (shown.length === 0) return null;
  return (
    <div className="eval-compare-charts">
      {shown.map((m) => {
        const data = runs.map((r, i) => ({ name: r.letter, label: r.label, value: summaryValue(statsFor(r.summary, m)), i, id: r.id }));
        const binary = m.type === 'binary';
        return (
          <figure key={m.field} className="chart card" aria-label={`${m.label} by run`}>
            <figcaption>
              <strong>{m.label}</strong>
              <span className="chart-summary">{binary ? 'pass rate' : 'mean'}</span>
            </figcaption>
            <ResponsiveContainer width="100%" height={140}>
              <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid vertical={false} stroke="var(--border)" />
                <XAxis dataKey="name" fontSize={11} tickLine={false} stroke="var(--border-strong)" tick={{ fill: 'var(--text-muted)' }} />
                <YAxis
                  fontSize={11}
                  width={44}
                  tickLine={false}
                  axisLine={false}
                  // Means from zero (or below, for negative ones): a bar's height then compares as its value does.
                  domain={binary ? [0, 1] : [(min: number) => Math.min(0, min), (max: number) => Math.max(0, max)]}
                  tickFormatter={(v: number) => (binary ? `${Math.round(v * 100)}%` : String(Number(v.toPrecision(3))))}
                  tick={{ fill: 'var(--text-muted)' }}
                />
                <Tooltip
                  isAnimationActive={false}
                  cursor={{ className: 'chart-cursor' }}
                  formatter={(v) => [typeof v === 'number' ? formatMetric(v, m.type) : '—', m.label]}
                  labelFormatter={(name) => data.find((d) => d.name === name)?.label ?? String(name)}
                />
                <Bar dataKey="value" isAnimationActive={false}>
                  {data.map((d) => (
                    <Cell
                      key={d.id}
                      fill={color(d.i)}
                      stroke={d.id === baselineId ? 'var(--text)' : undefined}
                      strokeWidth={d.id === baselineId ? 2 : 0}
                    />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
            <ul className="eval-chart-values">
              {data.map((d) => (
                <li key={d.id}>
                  {d.name}: {d.value === null ? '—' : formatMetric(d.value, m.type)}
                  {d.id === baselineId ? ' (baseline)' : ''}
                </li>
              ))}
            </ul>
          </figure>
        );
      })}
    </div>
  );
}
