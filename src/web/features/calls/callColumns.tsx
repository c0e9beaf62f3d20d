/**
 * Calls table columns. Built-ins are declared once at module scope; a path column (inputs.q,
 * output.answer, attributes.env) is made on first use and cached, so column identity is stable.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link, useLocation, useParams } from 'react-router-dom';
import { RefLink } from '../../components/refs/RefLink.js';
import { selectionColumn } from '../../components/table/selectionColumn.js';
import { NumberCell } from '../../components/table/NumberCell.js';
import { TimestampCell } from '../../components/table/TimestampCell.js';
import { ValueCell } from '../../components/table/ValueCell.js';
import { StatusBadge } from '../../components/ui/StatusBadge.js';
import { formatCompact, formatCost, formatDuration } from '../../lib/format.js';
import { feedbackPathColumn, feedbackSummaryColumn } from '../feedback/feedbackColumns.js';
import { scoresColumn } from '../judges/scoresColumn.js';
import { readableText } from '../threads/threadText.js';
import {
  callCost,
  callLatencyMs,
  callModels,
  callName,
  callStatus,
  callTokens,
  opBaseName,
  readPath,
  type Call,
} from '../../entities/calls/callFields.js';
import '../../components/table/table.css';

const col = createColumnHelper<Call>();

/** A calls table column; value types differ per column, as TanStack types mixed lists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CallColumnDef = ColumnDef<Call, any>;

/** The op name, linking to the call inside its trace; beside it, a link to the op's version. */
function OpCell({ call }: { call: Call }) {
  const { entity, project } = useParams();
  const { search } = useLocation();
  const isChild = call.parent_id !== null;
  return (
    <>
      <Link
        className="cell-link"
        to={`/${entity}/${project}/traces/${call.trace_id}?call=${call.id}`}
        state={{ callsSearch: search }}
        title={call.op_name}
        // The row cursor (Enter) opens the call; one Tab stop per table, not one per row.
        tabIndex={-1}
      >
        {isChild && (
          <span className="muted" aria-hidden="true">
            ↳{' '}
          </span>
        )}
        {callName(call)}
      </Link>
      <RefLink uri={call.op_name} ariaLabel={`Open op ${opBaseName(call.op_name)}`} tabIndex={-1}>
        op ↗
      </RefLink>
    </>
  );
}

/** What was asked or answered, as one line of readable text (a chat's last message, a known field). */
function PreviewCell({ value, side }: { value: unknown; side: 'input' | 'output' }) {
  if (value === undefined || value === null) return <span className="muted">—</span>;
  const text = readableText(value, side) ?? JSON.stringify(value);
  return (
    <span className="cell-text" title={text.slice(0, 1000)}>
      {text.slice(0, 300)}
    </span>
  );
}

/** Built-in columns by id; `sortField` is the server field a header click sorts by. */
export const builtinColumns: Record<string, { label: string; sortField?: string; def: CallColumnDef }> = {
  op: {
    label: 'Op',
    sortField: 'op_name',
    def: col.accessor('op_name', { id: 'op', header: 'Op', size: 280, cell: ({ row }) => <OpCell call={row.original} /> }),
  },
  status: {
    label: 'Status',
    sortField: 'summary.weave.status',
    def: col.accessor((c) => callStatus(c), {
      id: 'status',
      header: 'Status',
      size: 120,
      cell: ({ row }) => <StatusBadge status={callStatus(row.original)} />,
    }),
  },
  start: {
    label: 'Started',
    sortField: 'started_at',
    def: col.accessor('started_at', {
      id: 'start',
      header: 'Started',
      size: 120,
      cell: ({ row }) => <TimestampCell iso={row.original.started_at} />,
    }),
  },
  latency: {
    label: 'Latency',
    sortField: 'summary.weave.latency_ms',
    def: col.accessor((c) => callLatencyMs(c), {
      id: 'latency',
      header: 'Latency',
      size: 96,
      meta: { align: 'right' },
      cell: ({ row }) => <NumberCell value={callLatencyMs(row.original)} format={formatDuration} />,
    }),
  },
  input: {
    label: 'Input',
    def: col.display({
      id: 'input',
      header: 'Input',
      size: 220,
      cell: ({ row }) => <PreviewCell value={row.original.inputs} side="input" />,
    }),
  },
  output: {
    label: 'Output',
    def: col.display({
      id: 'output',
      header: 'Output',
      // The widest default column: what was answered is what a person scans for.
      size: 280,
      cell: ({ row }) => <PreviewCell value={row.original.output} side="output" />,
    }),
  },
  model: {
    label: 'Model',
    def: col.display({
      id: 'model',
      header: 'Model',
      size: 140,
      cell: ({ row }) => {
        const models = callModels(row.original);
        return models.length ? (
          <span className="cell-text mono" title={models.join(', ')}>
            {models.join(', ')}
          </span>
        ) : (
          <span className="muted">—</span>
        );
      },
    }),
  },
  // Tokens and cost sort on the server through Weft's computed fields (extensions).
  tokens: {
    label: 'Tokens',
    sortField: 'summary.weave.total_tokens',
    // An accessor column, so the header offers sorting (display columns never sort).
    def: col.accessor((c) => callTokens(c)?.total ?? null, {
      id: 'tokens',
      sortDescFirst: true,
      header: 'Tokens',
      size: 90,
      meta: { align: 'right' },
      cell: ({ row }) => {
        const t = callTokens(row.original);
        return (
          <NumberCell value={t?.total} format={formatCompact} title={t ? `${t.prompt} prompt + ${t.completion} completion` : undefined} />
        );
      },
    }),
  },
  cost: {
    label: 'Cost',
    sortField: 'summary.weave.total_cost',
    def: col.accessor((c) => callCost(c), {
      id: 'cost',
      sortDescFirst: true,
      header: 'Cost',
      size: 90,
      meta: { align: 'right' },
      cell: ({ row }) => <NumberCell value={callCost(row.original)} format={formatCost} />,
    }),
  },
  feedback: { label: 'Feedback', def: feedbackSummaryColumn },
  scores: { label: 'Scores', def: scoresColumn },
};

/** The selection checkbox column; its header clears the selection. */
export const selectColumn: CallColumnDef = selectionColumn<Call>('calls', callName);

const pathColumns = new Map<string, CallColumnDef>();

/** A column showing one dot path of each call, sortable by that path on the server. */
export function pathColumn(path: string): CallColumnDef {
  if (path.startsWith('feedback.')) return feedbackPathColumn(path);
  let def = pathColumns.get(path);
  if (!def) {
    def = col.accessor((c) => readPath(c, path), {
      id: path,
      header: path,
      size: 220,
      cell: ({ row }) => <ValueCell value={readPath(row.original, path)} />,
    });
    pathColumns.set(path, def);
  }
  return def;
}

/** The server sort field for a column id (built-in or path), or undefined when unsortable. */
export function sortFieldOf(columnId: string): string | undefined {
  const builtin = builtinColumns[columnId];
  return builtin ? builtin.sortField : columnId;
}

/** The column id a server sort field belongs to. */
export function columnIdOfSortField(field: string): string {
  return Object.entries(builtinColumns).find(([, c]) => c.sortField === field)?.[0] ?? field;
}
