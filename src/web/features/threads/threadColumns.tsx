/**
 * Threads table columns, declared once at module scope. Every statistic the endpoint can sort
 * by is sortable (column id = server sort field); the counts and previews it cannot sort are not.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link, useLocation, useParams } from 'react-router-dom';
import { NumberCell } from '../../components/table/NumberCell.js';
import { selectionColumn } from '../../components/table/selectionColumn.js';
import { TimestampCell } from '../../components/table/TimestampCell.js';
import { formatCompact, formatCost, formatDuration, formatInteger } from '../../lib/format.js';
import type { Thread } from './threadQueries.js';
import { previewText } from './threadText.js';
import type { ThreadSortField } from './threadsViewState.js';
import '../../components/table/table.css';
import './threads.css';

const col = createColumnHelper<Thread>();

/** A threads table column; value types differ per column, as TanStack types mixed lists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ThreadColumnDef = ColumnDef<Thread, any>;

/** The thread id, linking to the thread; the list's URL rides along for the way back. */
function ThreadIdCell({ threadId }: { threadId: string }) {
  const { entity, project } = useParams();
  const { search } = useLocation();
  return (
    <Link
      className="cell-link mono"
      to={`/${entity}/${project}/threads/${encodeURIComponent(threadId)}`}
      state={{ threadsSearch: search }}
      title={threadId}
      // The row cursor (Enter) opens the thread; one Tab stop per table, not one per row.
      tabIndex={-1}
    >
      {threadId}
    </Link>
  );
}

/** One side of the conversation, as readable text when the preview has some. */
function PreviewCell({ preview, side }: { preview: string | null; side: 'input' | 'output' }) {
  const text = previewText(preview, side);
  if (text === null) return <span className="muted">—</span>;
  return (
    <span className="cell-text" title={text}>
      {text}
    </span>
  );
}

/** Turns, with the unfinished ones called out. */
function TurnsCell({ thread }: { thread: Thread }) {
  const running = thread.turn_count - thread.finished_turn_count;
  return (
    <span className="num" title={running ? `${running} still running` : undefined}>
      {formatInteger(thread.turn_count)}
      {running > 0 && <span className="muted"> ({running}…)</span>}
    </span>
  );
}

const duration = (ms: number) => formatDuration(ms);
const right = { align: 'right' } as const;

/**
 * Columns hidden until a person shows them from the table's chooser: the defaults fit a
 * 1280 px screen with what triage reads first (docs/dashboard.md "Columns").
 */
export const HIDDEN_THREAD_COLUMNS = ['start_time', 'p50_turn_duration_ms', 'p99_turn_duration_ms'] as const;

/** Every column of the threads table, in display order. */
export const threadColumns: ThreadColumnDef[] = [
  col.accessor('thread_id', {
    id: 'thread_id',
    header: 'Thread',
    size: 140,
    cell: ({ getValue }) => <ThreadIdCell threadId={getValue()} />,
  }),
  col.accessor('turn_count', {
    id: 'turn_count',
    header: 'Turns',
    size: 76,
    meta: right,
    sortDescFirst: true,
    cell: ({ row }) => <TurnsCell thread={row.original} />,
  }),
  col.accessor('start_time', {
    id: 'start_time',
    header: 'Started',
    size: 96,
    sortDescFirst: true,
    cell: ({ getValue }) => <TimestampCell iso={getValue()} />,
  }),
  col.accessor('last_updated', {
    id: 'last_updated',
    header: 'Last updated',
    size: 116,
    sortDescFirst: true,
    cell: ({ getValue }) => <TimestampCell iso={getValue()} />,
  }),
  col.accessor('first_input_preview', {
    id: 'first_input',
    header: 'First input',
    size: 200,
    enableSorting: false,
    cell: ({ getValue }) => <PreviewCell preview={getValue()} side="input" />,
  }),
  col.accessor('last_output_preview', {
    id: 'last_output',
    header: 'Last output',
    size: 200,
    enableSorting: false,
    cell: ({ getValue }) => <PreviewCell preview={getValue()} side="output" />,
  }),
  col.accessor('p50_turn_duration_ms', {
    id: 'p50_turn_duration_ms',
    header: 'p50 turn',
    size: 96,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={duration} />,
  }),
  col.accessor('p99_turn_duration_ms', {
    id: 'p99_turn_duration_ms',
    header: 'p99 turn',
    size: 96,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={duration} />,
  }),
  // Errors, tokens and cost sort on the server through Weft's extension sort fields.
  col.accessor('error_count', {
    id: 'error_count',
    header: 'Errors',
    size: 72,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) =>
      getValue() > 0 ? <span className="num thread-errors">{formatInteger(getValue())}</span> : <span className="muted">0</span>,
  }),
  col.accessor('total_tokens', {
    id: 'total_tokens',
    header: 'Tokens',
    size: 80,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue() || null} format={formatCompact} />,
  }),
  col.accessor('total_cost', {
    id: 'total_cost',
    header: 'Cost',
    size: 80,
    meta: right,
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue() ?? null} format={formatCost} />,
  }),
];

/** The selection checkbox column, first when the list can add threads to a queue. */
export const threadSelectColumn: ThreadColumnDef = selectionColumn<Thread>('threads', (t) => `thread ${t.thread_id}`);

/** True for column ids the server can sort by. */
export function isSortColumn(id: string): id is ThreadSortField {
  return threadColumns.some((c) => c.id === id && c.enableSorting !== false);
}
