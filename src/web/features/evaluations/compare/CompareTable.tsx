/**
 * The compare table: dataset rows aligned across runs, outputs and scores side by side. Rows
 * come whole from one eval_results query (sorted there); "differences only" is applied by the
 * page, since the query language cannot say "differs between evaluations".
 *
 * Columns can be resized (drag a header's edge, or focus it and press ←/→) and pinned: a pinned
 * column moves to the left and stays in view while the table scrolls sideways. Pinned columns
 * keep their width, so the sticky offsets stay right.
 */
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { DataTable } from '../../../components/table/DataTable.js';
import {
  compareDatasetColumn,
  compareOutputColumn,
  comparePositionColumn,
  compareScoreColumn,
  type CompareColumnDef,
  type CompareRunRef,
  type CompareTableRow,
} from './compareColumns.js';
import { datasetColumns } from './compareModel.js';
import type { CompareSort } from '../evalViewState.js';
import type { ScoreMetric } from '../scoreModel.js';
import { TablePanel } from '../../../components/table/TablePanel.js';
import '../evaluations.css';

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
  const [pinned, setPinned] = useState<readonly string[]>([]);
  const scope = `cmp-${useId().replace(/[^\w-]/g, '')}`;
  const { ordered, stickyCss } = useMemo(() => pinColumns(columns, pinned, scope), [columns, pinned, scope]);

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

  const label = (c: CompareColumnDef) => (typeof c.header === 'string' ? c.header : (c.id ?? ''));
  const pinnable = columns.filter((c) => c.id !== 'position' && !pinned.includes(c.id!));
  return (
    <TablePanel className={`eval-table ${scope}`}>
      <style>{stickyCss}</style>
      <div className="eval-pins" role="group" aria-label="Pinned columns">
        <select
          className="input small"
          aria-label="Pin a column"
          value=""
          onChange={(e) => e.target.value && setPinned((p) => [...p, e.target.value])}
        >
          <option value="">Pin a column…</option>
          {pinnable.map((c) => (
            <option key={c.id} value={c.id}>
              {label(c)}
            </option>
          ))}
        </select>
        {pinned.map((id) => {
          const c = columns.find((x) => x.id === id);
          return (
            <button key={id} type="button" className="button small ghost" onClick={() => setPinned((p) => p.filter((x) => x !== id))}>
              Unpin {c ? label(c) : id} ×
            </button>
          );
        })}
      </div>
      <DataTable
        ariaLabel="Compared results"
        columns={ordered}
        enableColumnResizing
        rowCount={rows.length}
        getRow={getRow}
        getRowId={getRowId}
        scrollRef={scrollRef}
        sorting={sorting}
        onSortingChange={onSortingChange}
        empty={empty}
      />
    </TablePanel>
  );
}

/**
 * The columns with the row number and the pinned ones first (pinned ones fixed in width), and
 * CSS making those cells sticky at their running left offsets within `scope`.
 */
function pinColumns(columns: CompareColumnDef[], pinned: readonly string[], scope: string) {
  const first = columns.filter((c) => c.id === 'position');
  const pins = pinned.flatMap((id) => columns.filter((c) => c.id === id)).map((c) => ({ ...c, enableResizing: false }));
  const rest = columns.filter((c) => c.id !== 'position' && !pinned.includes(c.id!));
  const sticky = [...first, ...pins];
  let left = 0;
  const rules = sticky.map((c, i) => {
    const rule = `.${scope} .dt-row > :nth-child(${i + 1}) { position: sticky; left: ${left}px; z-index: 2; background: var(--bg); }`;
    left += c.size ?? 150;
    return rule;
  });
  return { ordered: [...first.map((c) => ({ ...c, enableResizing: false })), ...pins, ...rest], stickyCss: rules.join('\n') };
}
