/**
 * Columns of the compare table: the dataset row's values, then each metric once per run side by
 * side (the non-baseline values marked up or down against the baseline), then each run's
 * output. Columns are made on first use and cached by what they show, so their identity is
 * stable across renders.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { createContext, useContext, type MouseEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ValueCell } from '../../../components/table/ValueCell.js';
import { exampleValue, type CompareRow } from './compareModel.js';
import { trialHref } from '../runs/resultColumns.js';
import { TrialsScore } from '../runs/TrialsScore.js';
import { scoreValue, trialsMean, type ScoreMetric } from '../scoreModel.js';
import '../evaluations.css';

/** A compared run as the columns need it. */
export interface CompareRunRef {
  id: string;
  /** A, B, C, … in the order of the URL. */
  letter: string;
  traceId: string;
}

/** A compare table row: a dataset row and its 1-based position in the current order. */
export interface CompareTableRow extends CompareRow {
  position: number;
}

const col = createColumnHelper<CompareTableRow>();

/** A compare table column; value types differ per column, as TanStack types mixed lists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CompareColumnDef = ColumnDef<CompareTableRow, any>;

/** The row number. */
export const comparePositionColumn: CompareColumnDef = col.accessor('position', {
  id: 'position',
  header: '#',
  size: 52,
  enableSorting: false,
  cell: ({ row }) => <RowViewLink row={row.original} />,
});

/** Opens the row view as the table does (a row click); the table provides it. */
export const OpenRowContext = createContext<((row: CompareTableRow) => void) | null>(null);

/**
 * Opens the row view of a row (`?row=<digest>`), keeping the rest of the view. A plain click opens
 * it as a row click does; the link still opens it in a new tab.
 */
function RowViewLink({ row }: { row: CompareTableRow }) {
  const [params] = useSearchParams();
  const open = useContext(OpenRowContext);
  const next = new URLSearchParams(params);
  next.set('row', row.rowDigest);
  const onClick = (e: MouseEvent) => {
    if (!open || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    open(row);
  };
  return (
    <Link
      className="num eval-row-link"
      to={`?${next.toString()}`}
      onClick={onClick}
      aria-label={`Open row ${row.position}`}
      title="Read this row side by side"
    >
      {row.position}
    </Link>
  );
}

const cache = new Map<string, CompareColumnDef>();
function cached(key: string, make: () => CompareColumnDef): CompareColumnDef {
  let def = cache.get(key);
  if (!def) cache.set(key, (def = make()));
  return def;
}

/** A dataset value (`key` null: the whole row). */
export function compareDatasetColumn(key: string | null): CompareColumnDef {
  const id = key === null ? 'inputs' : `inputs.${key}`;
  return cached(id, () =>
    col.accessor((r) => exampleValue(r.example, key), {
      id,
      header: key ?? 'Example',
      size: 160,
      cell: ({ getValue }) => <ValueCell value={getValue()} />,
    }),
  );
}

function OutputCell({ row, run }: { row: CompareTableRow; run: CompareRunRef }) {
  const { entity = '', project = '' } = useParams();
  const trials = row.trials.get(run.id);
  const first = trials?.[0];
  if (!first) return <span className="muted">—</span>;
  return (
    <span className="eval-output-cell">
      <Link
        className="eval-trace-link"
        to={trialHref({ entity, project, traceId: run.traceId, callId: first.predict_and_score_call_id })}
        aria-label={`Trace of run ${run.letter}, row ${row.position}`}
        title="Open trace"
      >
        ↗
      </Link>
      <ValueCell value={first.model_output} />
      {trials.length > 1 && <span className="muted small"> +{trials.length - 1}</span>}
    </span>
  );
}

/**
 * One run's model output (the first trial's when a row has several), linking to its trace.
 * `id` defaults to `outputs|<run id>`; the table names the baseline's and the compared run's by
 * their role, so a column choice holds across comparisons.
 */
export function compareOutputColumn(run: CompareRunRef, size = 240, id = `outputs|${run.id}`): CompareColumnDef {
  return cached(`out|${id}|${run.id}|${run.letter}|${run.traceId}|${size}`, () =>
    col.display({
      id,
      header: `Output ${run.letter}`,
      size,
      cell: ({ row }) => <OutputCell row={row.original} run={run} />,
    }),
  );
}

/** A run's value of a metric in a row: the trial's own value, or the mean over several trials. */
function rowValue(row: CompareRow, runId: string, metric: ScoreMetric): unknown {
  const trials = row.trials.get(runId);
  if (!trials?.length) return undefined;
  return trials.length === 1 ? scoreValue(trials[0]!, metric) : trialsMean(trials, metric);
}

function CompareScoreCell({
  row,
  run,
  baselineId,
  metric,
}: {
  row: CompareTableRow;
  run: CompareRunRef;
  baselineId: string;
  metric: ScoreMetric;
}) {
  const trials = row.trials.get(run.id);
  if (run.id === baselineId || metric.type === 'text') return <TrialsScore trials={trials} metric={metric} />;
  const mine = trialsMean(row.trials.get(run.id) ?? [], metric);
  const base = trialsMean(row.trials.get(baselineId) ?? [], metric);
  const move = mine === null || base === null || Math.abs(mine - base) < 1e-9 ? null : mine > base ? 'up' : 'down';
  return (
    <span className={`eval-cmp-score${move ? ` eval-${move}` : ''}`}>
      {move && (
        <span className="eval-move" aria-label={move === 'up' ? 'higher than baseline' : 'lower than baseline'}>
          {move === 'up' ? '▲' : '▼'}
        </span>
      )}
      <TrialsScore trials={trials} metric={metric} />
    </span>
  );
}

/**
 * A metric for the baseline and the compared run in one column ("correct C→A": the baseline's
 * value, then the compared run's marked up or down): the default table's compact form. Sorts by
 * the compared run's value; column id `pair|<field>` (the table maps it to that run).
 */
export function comparePairScoreColumn({
  metric,
  baseline,
  compared,
}: {
  metric: ScoreMetric;
  baseline: CompareRunRef;
  compared: CompareRunRef;
}): CompareColumnDef {
  return cached(`pair|${metric.field}|${baseline.id}|${baseline.letter}|${compared.id}|${compared.letter}`, () =>
    col.accessor((r) => rowValue(r, compared.id, metric), {
      id: `pair|${metric.field}`,
      header: `${metric.label} ${baseline.letter}→${compared.letter}`,
      size: Math.max(metric.type === 'binary' ? 150 : 132, Math.min(180, metric.label.length * 7 + 64)),
      meta: metric.type === 'text' ? undefined : { align: 'right' },
      sortDescFirst: true,
      cell: ({ row }) => (
        <span className="eval-score-pair" title={`${baseline.letter} (baseline), then ${compared.letter}`}>
          <TrialsScore trials={row.original.trials.get(baseline.id)} metric={metric} />
          <span className="muted" aria-hidden="true">
            →
          </span>
          <CompareScoreCell row={row.original} run={compared} baselineId={baseline.id} metric={metric} />
        </span>
      ),
    }),
  );
}

/**
 * A metric's value in one run; column id `id`, by default `<field>|<run id>` (a header click
 * sorts by that run's value).
 */
export function compareScoreColumn({
  metric,
  run,
  baselineId,
  id = `${metric.field}|${run.id}`,
}: {
  metric: ScoreMetric;
  run: CompareRunRef;
  baselineId: string;
  id?: string;
}): CompareColumnDef {
  return cached(`score|${id}|${metric.field}|${run.id}|${run.letter}|${baselineId}`, () =>
    col.accessor((r) => rowValue(r, run.id, metric), {
      id,
      header: `${metric.label} ${run.letter}`,
      // The label, the run letter and the sort arrow; scores themselves are short.
      size: Math.max(84, Math.min(160, metric.label.length * 7 + 44)),
      meta: metric.type === 'text' ? undefined : { align: 'right' },
      sortDescFirst: true,
      cell: ({ row }) => <CompareScoreCell row={row.original} run={run} baselineId={baselineId} metric={metric} />,
    }),
  );
}
