/**
 * The compare table: dataset rows aligned across runs, outputs and scores side by side. Rows
 * come whole from one eval_results query (sorted there); "differences only" is applied by the
 * page, since the query language cannot say "differs between evaluations".
 */
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { DataTable } from '../../components/table/DataTable.js';
import {
  compareDatasetColumn,
  compareOutputColumn,
  comparePositionColumn,
  compareScoreColumn,
  type CompareRunRef,
  type CompareTableRow,
} from './compareColumns.js';
import { datasetColumns } from './compareModel.js';
import type { CompareSort } from './evalViewState.js';
import type { ScoreMetric } from './scoreModel.js';

/** Props of CompareTable. */
export interface CompareTableProps {
  rows: CompareTableRow[];
  runs: CompareRunRef[];
  baselineId: string;
  metrics: ScoreMetric[];
  sort: CompareSort | null;
  onSortChange: (sort: CompareSort) => void;
  empty: ReactNode;
}

const getRowId = (r: CompareTableRow) => r.rowDigest;

/** Column id → sort, and back: `inputs.x` sorts by value across runs, `<field>|<run>` by one run's value. */
function toSort(id: string, desc: boolean): CompareSort {
  const [field, runId] = id.split('|') as [string, string | undefined];
  return { mode: 'value', field, direction: desc ? 'desc' : 'asc', runId: runId ?? null };
}
const columnIdOf = (s: CompareSort) => (s.runId ? `${s.field}|${s.runId}` : s.field);

/** Compare table. */
export function CompareTable({ rows, runs, baselineId, metrics, sort, onSortChange, empty }: CompareTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => datasetColumns(rows.slice(0, 50).map((r) => r.example)), [rows]);
  const keyText = keys.join('\u0000');
  const columns = useMemo(
    () => [
      comparePositionColumn,
      ...(keyText ? keyText.split('\u0000').map(compareDatasetColumn) : [compareDatasetColumn(null)]),
      ...metrics.flatMap((metric) => runs.map((run) => compareScoreColumn({ metric, run, baselineId }))),
      ...runs.map(compareOutputColumn),
    ],
    [keyText, runs, metrics, baselineId],
  );
  const getRow = useCallback((i: number) => rows[i], [rows]);

  const sorting: SortingState = useMemo(
    () => (sort && sort.mode === 'value' ? [{ id: columnIdOf(sort), desc: sort.direction === 'desc' }] : []),
    [sort],
  );
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (next) onSortChange(toSort(next.id, next.desc));
    },
    [sorting, onSortChange],
  );

  return (
    <div className="calls-table eval-table">
      <DataTable
        ariaLabel="Compared results"
        columns={columns}
        rowCount={rows.length}
        getRow={getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        sorting={sorting}
        onSortingChange={onSortingChange}
        empty={empty}
      />
    </div>
  );
}
