/**
 * A run's per-example results: one row per trial, pages of dataset rows loaded from
 * eval_results/query as they scroll into view, sorted on the server by a header click. A row
 * opens its trace with the row's predict_and_score call selected.
 */
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { EvalResultsQueryRes } from '../../../../contract/evalResults.js';
import { DataTable } from '../../../components/table/DataTable.js';
import { useListPlace } from '../../../components/table/useListPlace.js';
import { useColumnChoice } from '../../../components/table/columnChoice.js';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { datasetColumns } from '../compare/compareModel.js';
import type { ColumnSort } from '../evalViewState.js';
import {
  datasetColumn,
  outputColumn,
  positionColumn,
  resultScoreColumn,
  trailingColumns,
  trialHref,
  type ResultRow,
} from './resultColumns.js';
import type { ScoreMetric } from '../scoreModel.js';
import { TablePanel } from '../../../components/table/TablePanel.js';
import '../evaluations.css';

/** Rows from the end at which the next page is asked for. */
const PREFETCH_ROWS = 30;

/** Props of RunResultsTable. */
export interface RunResultsTableProps {
  list: UseInfiniteQueryResult<InfiniteData<EvalResultsQueryRes>, Error>;
  runId: string;
  traceId: string;
  metrics: ScoreMetric[];
  sort: ColumnSort | null;
  onSortChange: (sort: ColumnSort) => void;
  empty: ReactNode;
}

const getRowId = (r: ResultRow) => r.id;

/** Trials of the loaded pages, numbered by dataset row. */
function toResultRows(pages: readonly EvalResultsQueryRes[], runId: string, traceId: string): ResultRow[] {
  const out: ResultRow[] = [];
  let position = 0;
  for (const page of pages) {
    for (const row of page.rows) {
      position += 1;
      const trials = row.evaluations.find((e) => e.evaluation_call_id === runId)?.trials ?? [];
      trials.forEach((trial, trialIndex) =>
        out.push({
          id: `${row.row_digest}/${trialIndex}`,
          position,
          rowDigest: row.row_digest,
          example: row.raw_data_row,
          trial,
          trialIndex,
          trialCount: trials.length,
          traceId,
        }),
      );
    }
  }
  return out;
}

/** Run results table. */
export function RunResultsTable({ list, runId, traceId, metrics, sort, onSortChange, empty }: RunResultsTableProps) {
  const navigate = useNavigate();
  const { entity = '', project = '' } = useParams();
  const scrollRef = useRef<HTMLDivElement>(null);
  const place = useListPlace('results');
  const columnChoice = useColumnChoice('results');
  const rows = useMemo(() => toResultRows(list.data?.pages ?? [], runId, traceId), [list.data, runId, traceId]);
  // Dataset columns from the first page only, so columns do not shift while scrolling.
  const firstPage = list.data?.pages[0];
  const columns = useMemo(() => {
    const keys = datasetColumns(firstPage?.rows.map((r) => r.raw_data_row) ?? []);
    // Tokens and cost only when the run reports them (API runs without usage do not).
    const trials = firstPage?.rows.flatMap((r) => r.evaluations.flatMap((e) => e.trials)) ?? [];
    const trailing = trailingColumns.filter(
      (c) => c.id === 'latency' || trials.some((t) => (c.id === 'tokens' ? t.total_tokens : t.total_cost) !== null),
    );
    return [
      positionColumn,
      ...(keys.length ? keys.map(datasetColumn) : [datasetColumn(null)]),
      outputColumn,
      ...metrics.map(resultScoreColumn),
      ...trailing,
    ];
  }, [firstPage, metrics]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const rowCount = rows.length + (hasNextPage ? 1 : 0);
  const getRow = useCallback((i: number) => rows[i], [rows]);
  const onRangeChange = useCallback(
    (_start: number, end: number) => {
      if (hasNextPage && !isFetchingNextPage && end >= rows.length - PREFETCH_ROWS) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length],
  );

  const sorting: SortingState = useMemo(() => (sort ? [{ id: sort.id, desc: sort.direction === 'desc' }] : []), [sort]);
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (next) onSortChange({ id: next.id, direction: next.desc ? 'desc' : 'asc' });
    },
    [sorting, onSortChange],
  );
  const onRowClick = useCallback(
    (r: ResultRow) => void navigate(trialHref({ entity, project, traceId: r.traceId, callId: r.trial.predict_and_score_call_id })),
    [navigate, entity, project],
  );

  return (
    <TablePanel className="eval-table">
      {list.error && <ErrorState error={list.error} onRetry={() => void list.refetch()} compact />}
      <DataTable
        ariaLabel="Results"
        columns={columns}
        rowCount={rowCount}
        getRow={getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        place={place}
        columnChoice={columnChoice}
        sorting={sorting}
        onSortingChange={onSortingChange}
        onRowClick={onRowClick}
        onRangeChange={onRangeChange}
        empty={empty}
      />
    </TablePanel>
  );
}
