/**
 * Runs list columns. The fixed ones are declared once at module scope; a scorer's column is made
 * on first use and cached by metric, so column identity stays stable as summaries load.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link, useParams } from 'react-router-dom';
import { selectionColumn } from '../../../components/table/selectionColumn.js';
import { NumberCell } from '../../../components/table/NumberCell.js';
import { TimestampCell } from '../../../components/table/TimestampCell.js';
import { formatDuration, formatInteger } from '../../../lib/format.js';
import { RunStatus } from './RunStatus.js';
import type { RunRow } from './runRows.js';
import { formatMetric, statsFor, summaryValue, type ScoreMetric } from '../scoreModel.js';
import '../../../components/table/table.css';

const col = createColumnHelper<RunRow>();

/** A runs list column; value types differ per column, as TanStack types mixed lists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunColumnDef = ColumnDef<RunRow, any>;

/** The evaluation's name and version, linking to the run. */
function RunLinkCell({ row }: { row: RunRow }) {
  const { entity, project } = useParams();
  return (
    <Link
      className="cell-link"
      to={`/${entity}/${project}/evaluations/runs/${encodeURIComponent(row.run.evaluation_run_id)}`}
      title={row.run.evaluation}
    >
      {row.evaluationLabel}
    </Link>
  );
}

const right = { align: 'right' } as const;

/** The selection column: a checkbox per run; the header clears the selection. */
export const selectColumn: RunColumnDef = selectionColumn<RunRow>('runs', (r) => `run ${r.evaluationLabel} of ${r.modelLabel}`);

/** Hidden until shown from the chooser, so the scorer columns fit beside the rest at 1280 px. */
export const HIDDEN_RUN_COLUMNS = ['started', 'duration', 'rows'] as const;

/** The fixed columns, in display order (after the selection column); the scorers go after the model. */
export const fixedRunColumns: RunColumnDef[] = [
  col.accessor('evaluationLabel', {
    id: 'evaluation',
    header: 'Evaluation',
    size: 170,
    cell: ({ row }) => <RunLinkCell row={row.original} />,
  }),
  col.accessor('modelLabel', {
    id: 'model',
    header: 'Model',
    size: 140,
    cell: ({ row }) => (
      <span className="cell-text" title={row.original.run.model}>
        {row.original.modelLabel}
      </span>
    ),
  }),
  col.accessor((r) => r.run.status, {
    id: 'status',
    header: 'Status',
    size: 110,
    cell: ({ row }) => <RunStatus status={row.original.run.status} />,
  }),
  col.accessor((r) => r.run.started_at, {
    id: 'started',
    header: 'Started',
    size: 110,
    sortDescFirst: true,
    cell: ({ row }) => <TimestampCell iso={row.original.run.started_at} />,
  }),
  col.accessor('durationMs', {
    id: 'duration',
    header: 'Duration',
    size: 90,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={formatDuration} />,
  }),
  col.accessor('rowCount', {
    id: 'rows',
    header: 'Rows',
    size: 72,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={formatInteger} />,
  }),
];

const scoreColumns = new Map<string, RunColumnDef>();

/** A scorer's aggregate: pass rate of a binary score, mean of a continuous one. */
export function scoreColumn(metric: ScoreMetric): RunColumnDef {
  let def = scoreColumns.get(metric.field);
  if (!def) {
    def = col.accessor((r) => summaryValue(statsFor(r.summary, metric)), {
      id: `score:${metric.field}`,
      header: metric.type === 'binary' ? `${metric.label} (pass)` : `${metric.label} (mean)`,
      size: Math.max(110, Math.round((metric.label.length + 7) * 7.5 + 34)),
      meta: right,
      sortDescFirst: true,
      cell: ({ row }) => <ScoreAggregateCell row={row.original} metric={metric} />,
    });
    scoreColumns.set(metric.field, def);
  }
  return def;
}

/** A run's aggregate of one metric; a skeleton while its summary loads. */
function ScoreAggregateCell({ row, metric }: { row: RunRow; metric: ScoreMetric }) {
  if (row.rowCount === undefined) return <span className="skeleton" style={{ width: 40, marginLeft: 'auto' }} />;
  const stats = statsFor(row.summary, metric);
  const value = summaryValue(stats);
  if (value === null) return <span className="muted">—</span>;
  const title =
    stats && metric.type === 'binary'
      ? `${stats.pass_true_count} of ${stats.pass_known_count} passed`
      : `mean of ${stats?.numeric_count ?? 0} scores`;
  return (
    <span className="num" title={title}>
      {formatMetric(value, metric.type)}
    </span>
  );
}
