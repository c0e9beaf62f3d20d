/**
 * A dataset version's rows, virtualized and paged from `/table/query`, edited in place
 * (docs/datasets.md "Dataset page"): cell edits, added and deleted rows collect in a draft that
 * one save writes as a new version (`/table/update`); a column added, renamed or deleted is
 * saved at once as a version of its own (`/table/create`), so row and column edits never mix.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, useState } from 'react';
import { saveDatasetEdits, type ColumnEdit, type DatasetEdits, type DatasetRow } from '../../../client/datasetVersions.js';
import { DataTable } from '../../components/table/DataTable.js';
import { previewValue } from '../../components/table/ValueCell.js';
import { usePagedRows } from '../../components/table/usePagedRows.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { api } from '../../lib/api.js';
import { formatInteger, plural } from '../../lib/format.js';
import { objectKeys, type ObjVersion } from '../objects/objectQueries.js';
import { TABLE_PAGE_SIZE, tableCountQueryOptions, tablePageQueryOptions } from '../objects/tables/tableQueries.js';
import { cellText, columnNames, parseCell } from './datasetModel.js';
import { datasetKeys } from './datasetQueries.js';
import '../objects/objectPage.css';
import '../objects/objects.css';
import './datasets.css';

/** A row as shown: a base row (by its index in the table) or an added one, with its draft state. */
interface EditRow {
  pos: number;
  index: number | null;
  val: DatasetRow;
  /** The row as the version has it (null for an added row). */
  base: DatasetRow | null;
  mark: 'kept' | 'edited' | 'removed' | 'added';
}

interface Draft {
  replace: ReadonlyMap<number, DatasetRow>;
  remove: ReadonlySet<number>;
  append: readonly DatasetRow[];
}

const EMPTY: Draft = { replace: new Map(), remove: new Set(), append: [] };
const ROW_HEIGHT = 32;
const col = createColumnHelper<EditRow>();
const asRow = (v: unknown): DatasetRow => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as DatasetRow) : {});

export interface DatasetRowsEditorProps {
  projectId: string;
  objectId: string;
  version: ObjVersion;
  tableDigest: string;
  canEdit: boolean;
  /** A new version was saved. */
  onSaved: (digest: string) => void;
}

/** The rows of one version, editable. */
export function DatasetRowsEditor({ projectId, objectId, version, tableDigest, canEdit, onSaved }: DatasetRowsEditorProps) {
  const queryClient = useQueryClient();
  const pages = usePagedRows({
    pageSize: TABLE_PAGE_SIZE,
    page: (page) => tablePageQueryOptions({ projectId, digest: tableDigest, sort: null, page }),
    count: tableCountQueryOptions({ projectId, digest: tableDigest }),
    countOf: (n) => n,
    keepFirstPage: true,
  });
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<{ pos: number; key: string } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const dropped = useRef(false);
  const total = pages.total;
  const changes = draft.replace.size + draft.remove.size + draft.append.length;

  const names = useMemo(
    () => columnNames([...(pages.firstPage ?? []).map((r) => r.val), ...draft.append]),
    [pages.firstPage, draft.append],
  );

  const { getRow: pageRow } = pages;
  const getRow = useCallback(
    (pos: number): EditRow | undefined => {
      if (total !== null && pos >= total) {
        const val = draft.append[pos - total];
        return val && { pos, index: null, val, base: null, mark: 'added' };
      }
      const base = pageRow(pos);
      if (!base) return undefined;
      const replaced = draft.replace.get(pos);
      const mark = draft.remove.has(pos) ? 'removed' : replaced ? 'edited' : 'kept';
      return { pos, index: pos, val: replaced ?? asRow(base.val), base: asRow(base.val), mark };
    },
    [pageRow, total, draft],
  );

  const commitCell = useCallback(
    (row: EditRow, key: string, text: string) => {
      setEditing(null);
      const value = parseCell(text);
      if (cellText(row.val[key]) === text && key in row.val) return;
      const val = { ...row.val, [key]: value };
      setDraft((d) =>
        row.index === null
          ? { ...d, append: d.append.map((r, k) => (k === row.pos - (total ?? 0) ? val : r)) }
          : { ...d, replace: new Map(d.replace).set(row.index, val) },
      );
    },
    [total],
  );

  const toggleRemove = useCallback(
    (row: EditRow) =>
      setDraft((d) => {
        if (row.index === null) return { ...d, append: d.append.filter((_, k) => k !== row.pos - (total ?? 0)) };
        const remove = new Set(d.remove);
        if (!remove.delete(row.index)) remove.add(row.index);
        return { ...d, remove };
      }),
    [total],
  );

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const columns = useMemo<ColumnDef<EditRow, any>[]>(
    () => [
      col.display({
        id: 'actions',
        header: '#',
        size: 86,
        cell: ({ row }) => {
          const r = row.original;
          return (
            <span className="dataset-row-actions">
              <span className="muted">{r.mark === 'added' ? '+' : formatInteger(r.pos)}</span>
              {canEdit && (
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={r.mark === 'removed' ? `Keep row ${r.pos}` : `Delete row ${r.pos}`}
                  onClick={() => toggleRemove(r)}
                >
                  {r.mark === 'removed' ? '↺' : '✕'}
                </button>
              )}
            </span>
          );
        },
      }),
      ...names.map((key) =>
        col.display({
          id: key,
          header: key,
          size: 200,
          cell: ({ row }) => {
            const r = row.original;
            if (editing && editing.pos === r.pos && editing.key === key) {
              return (
                <input
                  className="input dataset-cell-input"
                  aria-label={`Value of ${key} in row ${r.pos}`}
                  autoFocus
                  defaultValue={cellText(r.val[key])}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') commitCell(r, key, e.currentTarget.value);
                    else if (e.key === 'Escape') {
                      // The input's removal may blur it: that blur must not keep the edit.
                      dropped.current = true;
                      setEditing(null);
                    }
                    e.stopPropagation();
                  }}
                  onFocus={() => (dropped.current = false)}
                  onBlur={(e) => {
                    if (!dropped.current) commitCell(r, key, e.currentTarget.value);
                  }}
                />
              );
            }
            const text = previewValue(r.val[key], 200);
            const changed = r.mark === 'edited' && (!(key in r.base!) || cellText(r.base![key]) !== cellText(r.val[key]));
            const cls = `dataset-cell ${r.mark === 'removed' ? 'removed' : r.mark === 'added' ? 'added' : changed ? 'edited' : ''}`;
            return canEdit && r.mark !== 'removed' ? (
              <button
                type="button"
                className={cls}
                aria-label={`Edit ${key} of row ${r.pos}`}
                title={text}
                onClick={() => setEditing({ pos: r.pos, key })}
              >
                {text}
              </button>
            ) : (
              <span className={cls} title={text}>
                {text}
              </span>
            );
          },
        }),
      ),
    ],
    [names, editing, canEdit, commitCell, toggleRemove],
  );

  const save = useMutation({
    mutationFn: () => {
      const edits: DatasetEdits = {
        replace: [...draft.replace].map(([index, row]) => ({ index, row })),
        remove: [...draft.remove],
        append: [...draft.append],
      };
      return saveDatasetEdits(api, { projectId, objectId, baseVal: asRow(version.val), edits });
    },
    onSuccess: (saved) => afterSave(saved.digest),
  });
  const columnSave = useMutation({
    mutationFn: (edit: ColumnEdit) =>
      saveDatasetEdits(api, { projectId, objectId, baseVal: asRow(version.val), edits: { columns: [edit] } }),
    onSuccess: (saved) => afterSave(saved.digest),
  });
  function afterSave(digest: string) {
    setDraft(EMPTY);
    void queryClient.invalidateQueries({ queryKey: objectKeys.object(projectId, objectId) });
    void queryClient.invalidateQueries({ queryKey: datasetKeys.project(projectId) });
    onSaved(digest);
  }

  const addRow = () => setDraft((d) => ({ ...d, append: [...d.append, Object.fromEntries(names.map((n) => [n, '']))] }));
  const rowCount = (total ?? pages.rowCount) + draft.append.length;

  return (
    <div className="table-rows">
      <div className="table-rows-bar" role="toolbar" aria-label="Row edits">
        <span className="muted" aria-live="polite">
          {total !== null ? plural(total, 'row') : ''}
          {changes > 0 ? ` · ${plural(changes, 'unsaved change')}` : ''}
        </span>
        {pages.isFetching && <Spinner label="Loading rows" />}
        <span className="spacer" />
        {canEdit && (
          <>
            <button type="button" className="button small" disabled={total === null} onClick={addRow}>
              Add row
            </button>
            <button type="button" className="button small" disabled={changes === 0 || save.isPending} onClick={() => setDraft(EMPTY)}>
              Discard
            </button>
            <button type="button" className="button small primary" disabled={changes === 0 || save.isPending} onClick={() => save.mutate()}>
              {save.isPending ? 'Saving…' : 'Save as new version'}
            </button>
          </>
        )}
      </div>
      {canEdit && <ColumnTools names={names} blocked={changes > 0} pending={columnSave.isPending} onEdit={(e) => columnSave.mutate(e)} />}
      <MutationError mutations={[save, columnSave]} />
      {pages.error && <ErrorState error={pages.error} onRetry={pages.retry} compact />}
      <div className="objects-table-wrap">
        {pages.firstPage === undefined && !pages.error ? (
          <div className="page-loading">
            <Spinner showLabel label="Loading rows" />
          </div>
        ) : (
          <DataTable
            ariaLabel={`Rows of v${version.version_index}`}
            columns={columns}
            rowCount={rowCount}
            getRow={getRow}
            getRowId={(r) => String(r.pos)}
            scrollRef={scrollRef}
            rowHeight={ROW_HEIGHT}
            sorting={[]}
            onSortingChange={() => {}}
            onRangeChange={pages.onRangeChange}
            empty={<div className="empty-state">This version has no rows.</div>}
          />
        )}
      </div>
    </div>
  );
}

/** Add, rename or delete a column: each a new version at once. */
function ColumnTools({
  names,
  blocked,
  pending,
  onEdit,
}: {
  names: string[];
  blocked: boolean;
  pending: boolean;
  onEdit: (edit: ColumnEdit) => void;
}) {
  const [column, setColumn] = useState('');
  const [name, setName] = useState('');
  const chosen = column || names[0] || '';
  const newName = name.trim();
  const disabled = blocked || pending;
  const taken = names.includes(newName);
  return (
    <div className="dataset-columns row" role="group" aria-label="Column edits">
      <label className="field">
        <span>Column</span>
        <select className="input" aria-label="Column" value={chosen} onChange={(e) => setColumn(e.target.value)}>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <input
        className="input"
        aria-label="Column name"
        placeholder="new column name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <button
        type="button"
        className="button small"
        disabled={disabled || !newName || taken}
        onClick={() => {
          onEdit({ op: 'add', name: newName, value: '' });
          setName('');
        }}
      >
        Add column
      </button>
      <button
        type="button"
        className="button small"
        disabled={disabled || !newName || taken || !chosen}
        onClick={() => {
          onEdit({ op: 'rename', from: chosen, to: newName });
          setName('');
          setColumn(newName);
        }}
      >
        Rename column
      </button>
      <button
        type="button"
        className="button small danger"
        disabled={disabled || !chosen}
        onClick={() => onEdit({ op: 'delete', name: chosen })}
      >
        Delete column
      </button>
      <span className="muted small">
        {blocked
          ? 'Save or discard the row edits first.'
          : taken && newName
            ? `"${newName}" is a column already.`
            : 'Each column edit saves a new version.'}
      </span>
    </div>
  );
}
