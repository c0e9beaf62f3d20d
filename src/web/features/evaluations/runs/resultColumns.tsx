/**
 * Columns of a run's results table: one row per trial, with the dataset row's values (inputs and
 * expected values), the model output, each score, latency, tokens and cost; the row number links
 * to the trace.
 * Column ids of sortable columns are eval_results fields (`inputs.x`, `outputs`, `scores.x`), so
 * a header click sorts on the server. Fixed columns live at module scope; dataset and score
 * columns are made on first use and cached by id.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link, useParams } from 'react-router-dom';
import type { EvalResultsTrial } from '../../../../contract/evalResults.js';
import { NumberCell } from '../../../components/table/NumberCell.js';
import { ValueCell } from '../../../components/table/ValueCell.js';
import { formatCompact, formatCost, formatDuration } from '../../../lib/format.js';
import { exampleValue } from '../compare/compareModel.js';
import { ScoreCell } from './ScoreCell.js';
import { scoreValue, type ScoreMetric } from '../scoreModel.js';
import '../evaluations.css';

/** One trial of one dataset row, as the results table shows it. */
export interface ResultRow {
  id: string;
  /** 1-based position of the dataset row in the current order. */
  position: number;
  rowDigest: string;
  example: unknown;
  trial: EvalResultsTrial;
  trialIndex: number;
  trialCount: number;
  /** The trace holding the run (the run's own id for API runs). */
  traceId: string;
}

const col = createColumnHelper<ResultRow>();

/** A results table column; value types differ per column, as TanStack types mixed lists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ResultColumnDef = ColumnDef<ResultRow, any>;

/** The trace URL of a trial: the run's trace with the row's predict_and_score call selected. */
export function trialHref({
  entity,
  project,
  traceId,
  callId,
}: {
  entity: string;
  project: string;
  traceId: string;
  callId: string;
}): string {
  return `/${entity}/${project}/traces/${encodeURIComponent(traceId)}?call=${encodeURIComponent(callId)}`;
}

/** The row number (with the trial when a row has several), linking to the trial's trace. */
function PositionCell({ row }: { row: ResultRow }) {
  const { entity = '', project = '' } = useParams();
  return (
    <Link
      className="eval-position"
      to={trialHref({ entity, project, traceId: row.traceId, callId: row.trial.predict_and_score_call_id })}
      aria-label={`Trace of row ${row.position}`}
      title="Open trace"
    >
      {row.position}
      {row.trialCount > 1 && <span className="small"> · t{row.trialIndex + 1}</span>}
      <span aria-hidden="true"> ↗</span>
    </Link>
  );
}

const right = { align: 'right' } as const;

/** The row number, linking to the trace. */
export const positionColumn: ResultColumnDef = col.accessor('position', {
  id: 'position',
  header: '#',
  size: 64,
  enableSorting: false,
  enableHiding: false,
  cell: ({ row }) => <PositionCell row={row.original} />,
});

/** The model output, after the dataset columns. */
export const outputColumn: ResultColumnDef = col.accessor((r) => r.trial.model_output, {
  id: 'outputs',
  header: 'Output',
  size: 220,
  cell: ({ getValue }) => <ValueCell value={getValue()} />,
});

/** Figures read from the trial's predict call, after the scores. */
export const trailingColumns: ResultColumnDef[] = [
  col.accessor((r) => r.trial.model_latency_seconds, {
    id: 'latency',
    header: 'Latency',
    size: 84,
    meta: right,
    enableSorting: false,
    cell: ({ getValue }) => <NumberCell value={getValue() === null ? null : getValue() * 1000} format={formatDuration} />,
  }),
  col.accessor((r) => r.trial.total_tokens, {
    id: 'tokens',
    header: 'Tokens',
    size: 76,
    meta: right,
    enableSorting: false,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={formatCompact} />,
  }),
  col.accessor((r) => r.trial.total_cost, {
    id: 'cost',
    header: 'Cost',
    size: 84,
    meta: right,
    enableSorting: false,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={formatCost} />,
  }),
];

const cache = new Map<string, ResultColumnDef>();

/** A dataset value column (`key` null: the whole row, for rows that are not objects). */
export function datasetColumn(key: string | null): ResultColumnDef {
  const id = key === null ? 'inputs' : `inputs.${key}`;
  let def = cache.get(id);
  if (!def) {
    def = col.accessor((r) => exampleValue(r.example, key), {
      id,
      header: key ?? 'Example',
      size: key === null ? 280 : 170,
      cell: ({ getValue }) => <ValueCell value={getValue()} />,
    });
    cache.set(id, def);
  }
  return def;
}

/** A score column. */
export function resultScoreColumn(metric: ScoreMetric): ResultColumnDef {
  let def = cache.get(metric.field);
  if (!def) {
    def = col.accessor((r) => scoreValue(r.trial, metric), {
      id: metric.field,
      header: metric.label,
      size: Math.max(96, metric.label.length * 8 + 40),
      meta: metric.type === 'text' ? undefined : right,
      cell: ({ getValue }) => <ScoreCell value={getValue()} />,
    });
    cache.set(metric.field, def);
  }
  return def;
}
