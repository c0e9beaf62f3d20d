/**
 * The runs table: every (filtered) run with its figures, sorted in the page (see runRows.ts),
 * with a checkbox per run for comparing.
 */
import type { OnChangeFn, RowSelectionState, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DataTable } from '../../../components/table/DataTable.js';
import { useListPlace } from '../../../components/table/useListPlace.js';
import { useColumnChoice } from '../../../components/table/columnChoice.js';
import type { ColumnSort } from '../evalViewState.js';
import { fixedRunColumns, HIDDEN_RUN_COLUMNS, scoreColumn, selectColumn } from './runColumns.js';
import type { RunRow } from './runRows.js';
import type { ScoreMetric } from '../scoreModel.js';
import { TablePanel } from '../../../components/table/TablePanel.js';

/** Props of RunsTable. */
export interface RunsTableProps {
  rows: RunRow[];
  metrics: ScoreMetric[];
  sort: ColumnSort;
  onSortChange: (sort: ColumnSort) => void;
  selection: RowSelectionState;
  onSelectionChange: OnChangeFn<RowSelectionState>;
  empty: ReactNode;
}

const getRowId = (r: RunRow) => r.run.evaluation_run_id;

/** Runs table. */
export function RunsTable({ rows, metrics, sort, onSortChange, selection, onSelectionChange, empty }: RunsTableProps) {
  const navigate = useNavigate();
  const { entity, project } = useParams();
  const scrollRef = useRef<HTMLDivElement>(null);
  const place = useListPlace('runs');
  const columnChoice = useColumnChoice('runs', HIDDEN_RUN_COLUMNS);
  // The scorers right after what names the run, so three of them still fit 1280 px (docs/dashboard.md).
  const columns = useMemo(
    () => [selectColumn, ...fixedRunColumns.slice(0, 2), ...metrics.map(scoreColumn), ...fixedRunColumns.slice(2)],
    [metrics],
  );
  const getRow = useCallback((i: number) => rows[i], [rows]);

  const sorting: SortingState = useMemo(() => [{ id: sort.id, desc: sort.direction === 'desc' }], [sort]);
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (next) onSortChange({ id: next.id, direction: next.desc ? 'desc' : 'asc' });
    },
    [sorting, onSortChange],
  );
  const onRowClick = useCallback(
    (r: RunRow) => void navigate(`/${entity}/${project}/evaluations/runs/${encodeURIComponent(r.run.evaluation_run_id)}`),
    [navigate, entity, project],
  );

  return (
    <TablePanel>
      <DataTable
        ariaLabel="Evaluation runs"
        columns={columns}
        rowCount={rows.length}
        getRow={getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        place={place}
        columnChoice={columnChoice}
        sorting={sorting}
        onSortingChange={onSortingChange}
        rowSelection={selection}
        onRowSelectionChange={onSelectionChange}
        onRowClick={onRowClick}
        empty={empty}
        pageKeys
      />
    </TablePanel>
  );
}
