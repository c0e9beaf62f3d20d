/**
 * The compare table: dataset rows aligned across runs, outputs and scores side by side. Rows
 * come whole from one eval_results query (sorted there); "differences only" is applied by the
 * page, since the query language cannot say "differs between evaluations".
 *
 * By default the table shows what fits a laptop screen (docs/dashboard.md "Evaluations"): the
 * row number, the first dataset field, each metric's baseline and compared values in one column,
 * then the two runs' outputs sharing the width that is left; "All columns" shows a column per run
 * and metric, and the other runs and fields (remembered in this browser). A click on a row, or Enter on the cursor row, opens the row view.
 *
 * Columns can be resized (drag a header's edge, or focus it and press ←/→) and pinned: a pinned
 * column moves to the left and stays in view while the table scrolls sideways. Pinned columns
 * keep their width, so the sticky offsets stay right.
 */
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import type { RefObject } from 'react';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { DataTable } from '../../../components/table/DataTable.js';
import {
  compareDatasetColumn,
  compareOutputColumn,
  comparePairScoreColumn,
  comparePositionColumn,
  compareScoreColumn,
  type CompareColumnDef,
  type CompareRunRef,
  type CompareTableRow,
  OpenRowContext,
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
  comparedId: string;
  metrics: ScoreMetric[];
  sort: CompareSort | null;
  onSortChange: (sort: CompareSort) => void;
  /** The row open in the row view (-1: none); when it closes, that row takes the focus. */
  openIndex: number;
  onOpenRow: (row: CompareTableRow) => void;
  empty: ReactNode;
}

const ROW_HEIGHT = 32;
const ALL_COLUMNS_KEY = 'weft.compare.allColumns';

/** "All columns", remembered in this browser. */
function useAllColumns(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(ALL_COLUMNS_KEY) === '1';
    } catch {
      return false;
    }
  });
  const set = useCallback((next: boolean) => {
    setOn(next);
    try {
      if (next) localStorage.setItem(ALL_COLUMNS_KEY, '1');
      else localStorage.removeItem(ALL_COLUMNS_KEY);
    } catch {
      // storage unavailable (private mode): the choice lasts for this page only
    }
  }, []);
  return [on, set];
}

/** The width of an element, followed as it changes (null until measured). */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

const getRowId = (r: CompareTableRow) => r.rowDigest;

/** Column id → sort, and back: `inputs.x` sorts by value across runs, `<field>|<run>` by one run's value. */
function toSort(id: string, desc: boolean): CompareSort {
  const [field, runId] = id.split('|') as [string, string | undefined];
  return { mode: 'value', field, direction: desc ? 'desc' : 'asc', runId: runId ?? null };
}
const columnIdOf = (s: CompareSort) => (s.runId ? `${s.field}|${s.runId}` : s.field);

/** Compare table. */
export function CompareTable({
  rows,
  runs,
  baselineId,
  comparedId,
  metrics,
  sort,
  onSortChange,
  openIndex,
  onOpenRow,
  empty,
}: CompareTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [allColumns, setAllColumns] = useAllColumns();
  const width = useWidth(scrollRef);
  const keys = useMemo(() => datasetColumns(rows.slice(0, 50).map((r) => r.example)), [rows]);
  const keyText = keys.join('\u0000');
  const columns = useMemo(() => {
    const fields = keyText ? keyText.split('\u0000').map(compareDatasetColumn) : [compareDatasetColumn(null)];
    // The baseline, then the compared run, then (all columns) the others in the URL's order.
    const pair = [runs.find((r) => r.id === baselineId), runs.find((r) => r.id === comparedId)].filter((r) => r !== undefined);
    const shown = allColumns ? [...pair, ...runs.filter((r) => !pair.includes(r))] : pair;
    const [base, other] = pair;
    // Compact by default: one column per metric with both runs' values; all columns: one per run.
    const scores =
      !allColumns && base && other
        ? metrics.map((metric) => comparePairScoreColumn({ metric, baseline: base, compared: other }))
        : metrics.flatMap((metric) => shown.map((run) => compareScoreColumn({ metric, run, baselineId })));
    const rest = allColumns ? fields.slice(1) : [];
    // The outputs share what the other columns leave of the table's width (within bounds).
    const used = [comparePositionColumn, fields[0]!, ...scores, ...rest].reduce((w, c) => w + (c.size ?? 150), 0);
    const outputWidth = Math.round(Math.min(480, Math.max(140, ((width ?? 1000) - used - 2) / Math.max(1, shown.length))) / 4) * 4;
    return [comparePositionColumn, fields[0]!, ...scores, ...shown.map((run) => compareOutputColumn(run, outputWidth)), ...rest];
  }, [keyText, runs, metrics, baselineId, comparedId, allColumns, width]);
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

  // Back from the row view: the row last read takes the focus (and so the keyboard cursor).
  const lastOpen = useRef(-1);
  useEffect(() => {
    if (openIndex >= 0) {
      lastOpen.current = openIndex;
      return;
    }
    const index = lastOpen.current;
    const box = scrollRef.current;
    lastOpen.current = -1;
    if (index < 0 || !box) return;
    const selector = `[data-row-index="${index}"]`;
    if (!box.querySelector(selector)) box.scrollTop = Math.max(0, index * ROW_HEIGHT - box.clientHeight / 2);
    // The row may only exist after the virtualizer's next render.
    const frame = requestAnimationFrame(() => box.querySelector<HTMLElement>(selector)?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [openIndex]);

  const label = (c: CompareColumnDef) => (typeof c.header === 'string' ? c.header : (c.id ?? ''));
  const pinnable = columns.filter((c) => c.id !== 'position' && !pinned.includes(c.id!));
  return (
    <OpenRowContext.Provider value={onOpenRow}>
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
          <span className="spacer" />
          <label className="toggle">
            <input type="checkbox" checked={allColumns} onChange={(e) => setAllColumns(e.target.checked)} />
            All columns
          </label>
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
          onRowClick={onOpenRow}
          rowHeight={ROW_HEIGHT}
          // j/k from anywhere reach the table, except while the row view has them.
          pageKeys={openIndex < 0}
          empty={empty}
        />
      </TablePanel>
    </OpenRowContext.Provider>
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
