/**
 * Summary metrics of compared runs: one line per metric (each scorer's pass rate or mean, rows,
 * mean latency, tokens, cost), one column per run, every run but the baseline showing its
 * difference from the baseline in absolute terms and in percent. Higher scores read as better,
 * lower latency, tokens and cost do.
 */
import { Link, useParams } from 'react-router-dom';
import type { EvalResultsEvaluationSummary } from '../../../../contract/evalResults.js';
import { formatCompact, formatCost, formatInteger } from '../../../lib/format.js';
import type { CompareRunRef } from './compareColumns.js';
import { delta, formatDelta } from './compareModel.js';
import { formatMetric, statsFor, summaryValue, type ScoreMetric } from '../scoreModel.js';
import '../evaluations.css';
import '../../../components/table/table.css';

/** What the summary knows of each run. */
export interface CompareRunFigures extends CompareRunRef {
  label: string;
  summary: EvalResultsEvaluationSummary | undefined;
  rowCount: number | null;
  meanLatencySeconds: number | null;
}

type Kind = ScoreMetric['type'] | 'count' | 'cost' | 'seconds';

interface Line {
  id: string;
  label: string;
  kind: Kind;
  /** True when a smaller value is the better one. */
  lowerIsBetter: boolean;
  value: (r: CompareRunFigures) => number | null;
  format: (v: number) => string;
}

function lines(metrics: readonly ScoreMetric[]): Line[] {
  const scoreLines = metrics
    .filter((m) => m.type !== 'text')
    .map((m): Line => ({
      id: m.field,
      label: `${m.label} ${m.type === 'binary' ? '(pass rate)' : '(mean)'}`,
      kind: m.type,
      lowerIsBetter: false,
      value: (r) => summaryValue(statsFor(r.summary, m)),
      format: (v) => formatMetric(v, m.type),
    }));
  return [
    ...scoreLines,
    { id: 'rows', label: 'Rows', kind: 'count', lowerIsBetter: false, value: (r) => r.rowCount, format: formatInteger },
    // Pass rates count trials: with repeated dataset rows or several trials per row there are more
    // trials than rows, and both figures are shown so "124 rows" and "237/300" agree.
    {
      id: 'trials',
      label: 'Trials',
      kind: 'count',
      lowerIsBetter: false,
      value: (r) => r.summary?.trial_count ?? null,
      format: formatInteger,
    },
    {
      id: 'latency',
      label: 'Mean latency',
      kind: 'seconds',
      lowerIsBetter: true,
      value: (r) => r.meanLatencySeconds,
      format: (v) => `${v.toFixed(2)} s`,
    },
    {
      id: 'tokens',
      label: 'Tokens',
      kind: 'count',
      lowerIsBetter: true,
      value: (r) => r.summary?.predict_total_tokens ?? null,
      format: formatCompact,
    },
    {
      id: 'cost',
      label: 'Cost',
      kind: 'cost',
      lowerIsBetter: true,
      value: (r) => r.summary?.predict_total_cost ?? null,
      format: formatCost,
    },
  ];
}

/** Summary metrics table with deltas against the baseline. */
export function CompareSummary({ runs, baselineId, metrics }: { runs: CompareRunFigures[]; baselineId: string; metrics: ScoreMetric[] }) {
  const { entity = '', project = '' } = useParams();
  const baseline = runs.find((r) => r.id === baselineId);
  const shown = lines(metrics).filter((l) => runs.some((r) => l.value(r) !== null));
  return (
    <div className="eval-compare-summary card">
      <table className="simple-table compact" aria-label="Summary metrics">
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {runs.map((r) => (
              <th key={r.id} scope="col" className="num">
                <span className="eval-letter">{r.letter}</span>{' '}
                <Link className="cell-link" to={`/${entity}/${project}/evaluations/runs/${encodeURIComponent(r.id)}`}>
                  {r.label}
                </Link>
                {r.id === baselineId && <span className="tag">baseline</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((line) => {
            const base = baseline ? line.value(baseline) : null;
            return (
              <tr key={line.id}>
                <th scope="row">{line.label}</th>
                {runs.map((r) => {
                  const v = line.value(r);
                  const d = r.id === baselineId ? null : delta(base, v);
                  const text = d ? formatDelta(d, line.kind) : null;
                  const better = d && Math.abs(d.abs) > 1e-12 ? d.abs > 0 !== line.lowerIsBetter : null;
                  return (
                    <td key={r.id} className="num" data-metric={line.id} data-run={r.letter}>
                      <span className="eval-value">{v === null ? '—' : line.format(v)}</span>
                      {text && (
                        <span className={`eval-delta${better === null ? '' : better ? ' eval-better' : ' eval-worse'}`}>
                          {' '}
                          {text.abs}
                          {text.pct && ` (${text.pct})`}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
