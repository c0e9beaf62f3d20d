/**
 * Columns of an object's versions table, at module scope: version (selects it), digest, when it
 * was created, its aliases and tags (editable in place), and a Compare action against the
 * version on show. Cells read the page's URL state, so they need no props beyond the row.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { TimestampCell } from '../../../components/table/TimestampCell.js';
import { shortDigest } from '../../../lib/refs.js';
import { LabelEditor } from './LabelEditor.js';
import type { ObjVersion } from '../objectQueries.js';
import { useObjectView } from '../objectViewState.js';
import '../objectPage.css';

const col = createColumnHelper<ObjVersion>();

/** A versions table column. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type VersionColumnDef = ColumnDef<ObjVersion, any>;

/** `v3`, a button that shows that version. */
function VersionCell({ version, selected }: { version: ObjVersion; selected: boolean }) {
  const [, update] = useObjectView();
  return (
    <button
      type="button"
      className="link-button version-button"
      aria-current={selected || undefined}
      onClick={() => update({ version: version.digest, path: null, row: null }, { push: true })}
    >
      v{version.version_index}
    </button>
  );
}

/** Compare the version on show with this one. */
function CompareCell({ version, selected }: { version: ObjVersion; selected: boolean }) {
  const [, update] = useObjectView();
  if (selected) return <span className="muted small">showing</span>;
  return (
    <button
      type="button"
      className="button small ghost"
      onClick={() => update({ tab: 'compare', against: version.digest }, { push: true })}
    >
      Compare
    </button>
  );
}

/** Every column of the versions table, in display order. */
export const versionColumns: VersionColumnDef[] = [
  col.accessor('version_index', {
    id: 'version',
    header: 'Version',
    size: 84,
    enableSorting: false,
    cell: ({ row }) => <VersionCell version={row.original} selected={row.getIsSelected()} />,
  }),
  col.accessor('digest', {
    id: 'digest',
    header: 'Digest',
    size: 110,
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="mono muted" title={getValue()}>
        {shortDigest(getValue())}
      </span>
    ),
  }),
  col.accessor('created_at', {
    id: 'created',
    header: 'Created',
    size: 110,
    enableSorting: false,
    cell: ({ getValue }) => <TimestampCell iso={getValue()} />,
  }),
  col.display({ id: 'aliases', header: 'Aliases', size: 280, cell: ({ row }) => <LabelEditor kind="alias" version={row.original} /> }),
  col.display({ id: 'tags', header: 'Tags', size: 320, cell: ({ row }) => <LabelEditor kind="tag" version={row.original} /> }),
  col.display({
    id: 'compare',
    header: '',
    size: 96,
    cell: ({ row }) => <CompareCell version={row.original} selected={row.getIsSelected()} />,
  }),
];
