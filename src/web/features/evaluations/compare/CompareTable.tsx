/**
 * The compare table: dataset rows aligned across runs, outputs and scores side by side. Rows
 * come whole from one eval_results query (sorted there); "differences only" is applied by the
 * page, since the query language cannot say "differs between evaluations".
 *
 * By default the table shows what fits a laptop screen (docs/dashboard.md "Evaluations"): the
 * row number, the first dataset field, each metric's baseline and compared values in one column,
 * then the two runs' outputs sharing the width that is left. The column chooser (⚙, remembered
 * per user as in every table: docs/dashboard.md "Columns") adds a column per run and metric, the
 * other runs' outputs and the other dataset fields. The baseline's and the compared run's
 * columns are named by role (`output|baseline`, `compared|<field>`), so a choice holds in any
 * comparison. A click on a row, or Enter on the cursor row, opens the row view.
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
import { useColumnChoice } from '../../../components/table/columnChoice.js';
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
/** The header's last track, where DataTable puts the column chooser. */
const CHOOSER_WIDTH = 36;

/** Which run a column's values belong to, from its id (see toSort). */
function runOfColumn(prefix: string, baselineId: string, comparedId: string): string {
  return prefix === 'baseline' ? baselineId : prefix === 'compared' || prefix === 'pair' ? comparedId : prefix;
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

/**
 * Column id → sort, and back: `inputs.x` sorts by value across runs; `<field>|<run id>` by one
 * run's value, and so do the role-named `baseline|<field>`, `compared|<field>` and
 * `pair|<field>` (the compared run's).
 */
function toSort(id: string, desc: boolean, baselineId: string, comparedId: string): CompareSort {
  const direction = desc ? 'desc' : 'asc';
  const [head, tail] = id.split('|') as [string, string | undefined];
  if (tail === undefined) return { mode: 'value', field: head, direction, runId: null };
  if (head === 'baseline' || head === 'compared' || head === 'pair')
    return { mode: 'value', field: tail, direction, runId: runOfColumn(head, baselineId, comparedId) };
  return { mode: 'value', field: head, direction, runId: tail };
}
/** The shown column a sort is by (the arrow's place): the run's own column, else the pair's. */
function columnIdOf(s: CompareSort, baselineId: string, comparedId: string, visible: (id: string) => boolean): string {
  if (!s.runId) return s.field;
  if (s.runId === baselineId) return `baseline|${s.field}`;
  if (s.runId === comparedId) return visible(`compared|${s.field}`) ? `compared|${s.field}` : `pair|${s.field}`;
  return `${s.field}|${s.runId}`;
}

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
  const width = useWidth(scrollRef);
  const keys = useMemo(() => datasetColumns(rows.slice(0, 50).map((r) => r.example)), [rows]);
  const keyText = keys.join('\u0000');
  // Every column there is, and the ids of those hidden until a person shows them.
  const { all, hiddenByDefault } = useMemo(() => {
    const fields = keyText ? keyText.split('\u0000').map(compareDatasetColumn) : [compareDatasetColumn(null)];
    const base = runs.find((r) => r.id === baselineId);
    const other = runs.find((r) => r.id === comparedId && r.id !== baselineId);
    const roles = [
      ...(base ? [{ run: base, role: 'baseline' }] : []),
      ...(other ? [{ run: other, role: 'compared' }] : []),
      ...runs.filter((r) => r !== base && r !== other).map((run) => ({ run, role: null })),
    ];
    const pairs = base && other ? metrics.map((metric) => comparePairScoreColumn({ metric, baseline: base, compared: other })) : [];
    const perRun = metrics.flatMap((metric) =>
      roles.map(({ run, role }) => compareScoreColumn({ metric, run, baselineId, id: role ? `${role}|${metric.field}` : undefined })),
    );
    const outputs = roles.map(({ run, role }) => ({ run, id: role ? `output|${role}` : `outputs|${run.id}` }));
    const hidden = [
      ...fields.slice(1).map((c) => c.id!),
      // With a pair column per metric, the per-run ones are extra; without (one run), they are all there is.
      ...(pairs.length > 0 ? perRun.map((c) => c.id!) : []),
      ...outputs.filter((o) => !o.id.startsWith('output|')).map((o) => o.id),
    ];
    return { all: { position: comparePositionColumn, fields, pairs, perRun, outputs }, hiddenByDefault: hidden };
  }, [keyText, runs, metrics, baselineId, comparedId]);
  const columnChoice = useColumnChoice('compare', hiddenByDefault);
  const { visibility } = columnChoice;
  const columns = useMemo(() => {
    const shown = (c: CompareColumnDef) => visibility[c.id!] !== false;
    const { position, fields, pairs, perRun, outputs } = all;
    const before = [position, fields[0]!, ...pairs, ...perRun];
    const after = fields.slice(1);
    // The shown outputs share what the other shown columns leave of the table's width (within bounds).
    const used = [...before, ...after].filter(shown).reduce((w, c) => w + (c.size ?? 150), 0);
    const shownOutputs = outputs.filter((o) => visibility[o.id] !== false).length;
    const room = (width ?? 1000) - used - CHOOSER_WIDTH - 2;
    const outputWidth = Math.round(Math.min(480, Math.max(140, room / Math.max(1, shownOutputs))) / 4) * 4;
    return [...before, ...outputs.map((o) => compareOutputColumn(o.run, outputWidth, o.id)), ...after];
  }, [all, visibility, width]);
  const getRow = useCallback((i: number) => rows[i], [rows]);
  const [pinned, setPinned] = useState<readonly string[]>([]);
  const scope = `cmp-${useId().replace(/[^\w-]/g, '')}`;
  const visibleColumns = useMemo(() => columns.filter((c) => visibility[c.id!] !== false), [columns, visibility]);
  const { ordered, stickyCss } = useMemo(
    () => pinColumns(columns, visibleColumns, pinned, scope),
    [columns, visibleColumns, pinned, scope],
  );

  const sorting: SortingState = useMemo(
    () =>
      sort && sort.mode === 'value'
        ? [{ id: columnIdOf(sort, baselineId, comparedId, (id) => visibility[id] !== false), desc: sort.direction === 'desc' }]
        : [],
    [sort, baselineId, comparedId, visibility],
  );
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (next) onSortChange(toSort(next.id, next.desc, baselineId, comparedId));
    },
    [sorting, onSortChange, baselineId, comparedId],
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
  const pinnable = visibleColumns.filter((c) => c.id !== 'position' && !pinned.includes(c.id!));
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
          columnChoice={columnChoice}
        />
      </TablePanel>
    </OpenRowContext.Provider>
  );
}

/**
 * The columns with the row number and the pinned ones first (pinned ones fixed in width), and
 * CSS making those cells sticky at their running left offsets within `scope`. Only shown
 * columns have cells, so only shown pinned ones take a place.
 */
function pinColumns(columns: CompareColumnDef[], visible: CompareColumnDef[], pinned: readonly string[], scope: string) {
  const first = columns.filter((c) => c.id === 'position');
  const pins = pinned.flatMap((id) => columns.filter((c) => c.id === id)).map((c) => ({ ...c, enableResizing: false }));
  const rest = columns.filter((c) => c.id !== 'position' && !pinned.includes(c.id!));
  const sticky = [...first, ...pins].filter((c) => visible.some((v) => v.id === c.id));
  let left = 0;
  const rules = sticky.map((c, i) => {
    const rule = `.${scope} .dt-row > :nth-child(${i + 1}) { position: sticky; left: ${left}px; z-index: 2; background: var(--bg); }`;
    left += c.size ?? 150;
    return rule;
  });
  return {
    ordered: [...first.map((c) => ({ ...c, enableResizing: false, enableHiding: false })), ...pins, ...rest],
    stickyCss: rules.join('\n'),
  };
}
