/**
 * Objects list columns, declared once at module scope. The list is one request, so sorting
 * happens in the browser (sortObjects); column ids are the URL's sort fields.
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link, useParams } from 'react-router-dom';
import { NumberCell } from '../../components/table/NumberCell.js';
import { TimestampCell } from '../../components/table/TimestampCell.js';
import { formatInteger } from '../../lib/format.js';
import { shortDigest } from '../../lib/refs.js';
import { LabelChips } from './LabelChips.js';
import { objectCategory, objectTypeLabel } from './objectFields.js';
import type { ObjectSummary } from './objectQueries.js';
import type { ObjectsViewState } from './objectsViewState.js';
import '../../components/table/table.css';
import './objects.css';

const col = createColumnHelper<ObjectSummary>();

/** An objects list column. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ObjectColumnDef = ColumnDef<ObjectSummary, any>;

/** The object's name, linking to its page (latest version). */
function NameCell({ objectId }: { objectId: string }) {
  const { entity, project } = useParams();
  return (
    <Link className="cell-link" to={`/${entity}/${project}/objects/${encodeURIComponent(objectId)}`} title={objectId}>
      {objectId}
    </Link>
  );
}

/** The type as a small badge coloured by category. */
export function TypeBadge({ version }: { version: ObjectSummary['latest'] }) {
  return <span className={`type-badge cat-${objectCategory(version)}`}>{objectTypeLabel(version)}</span>;
}

/** Every column of the objects list, in display order. */
export const objectColumns: ObjectColumnDef[] = [
  col.accessor((s) => s.latest.object_id, {
    id: 'name',
    header: 'Name',
    size: 240,
    cell: ({ getValue }) => <NameCell objectId={getValue()} />,
  }),
  col.accessor((s) => objectTypeLabel(s.latest), {
    id: 'type',
    header: 'Type',
    size: 130,
    cell: ({ row }) => <TypeBadge version={row.original.latest} />,
  }),
  col.accessor('versionCount', {
    id: 'versions',
    header: 'Versions',
    size: 84,
    meta: { align: 'right' },
    sortDescFirst: true,
    cell: ({ getValue }) => <NumberCell value={getValue()} format={formatInteger} />,
  }),
  col.display({
    id: 'latest',
    header: 'Latest',
    size: 120,
    enableSorting: false,
    cell: ({ row }) => (
      <span className="mono" title={row.original.latest.digest}>
        v{row.original.latest.version_index} <span className="muted">{shortDigest(row.original.latest.digest)}</span>
      </span>
    ),
  }),
  col.accessor((s) => s.latest.created_at, {
    id: 'updated',
    header: 'Updated',
    size: 100,
    sortDescFirst: true,
    cell: ({ getValue }) => <TimestampCell iso={getValue()} />,
  }),
  // Every row is its object's latest version, so the virtual `latest` alias would only repeat itself.
  col.display({
    id: 'aliases',
    header: 'Aliases',
    size: 160,
    enableSorting: false,
    cell: ({ row }) => <LabelChips labels={row.original.latest.aliases.filter((a) => a !== 'latest')} kind="alias" />,
  }),
  col.display({
    id: 'tags',
    header: 'Tags',
    size: 200,
    enableSorting: false,
    cell: ({ row }) => <LabelChips labels={row.original.latest.tags} kind="tag" />,
  }),
];

const KEYS: Record<ObjectsViewState['sort']['field'], (s: ObjectSummary) => string | number> = {
  name: (s) => s.latest.object_id.toLowerCase(),
  type: (s) => objectTypeLabel(s.latest).toLowerCase(),
  versions: (s) => s.versionCount,
  updated: (s) => s.latest.created_at,
};

/** The list in the view's order (name breaks ties, so the order is stable). */
export function sortObjects(rows: readonly ObjectSummary[], sort: ObjectsViewState['sort']): ObjectSummary[] {
  const key = KEYS[sort.field];
  const dir = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -dir : x > y ? dir : a.latest.object_id.localeCompare(b.latest.object_id);
  });
}
