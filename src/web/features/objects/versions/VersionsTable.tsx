/**
 * An object's version history: every live version, newest first, the one on show highlighted.
 * Clicking a row shows that version; the latest failed label change is spelled out above.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { DataTable } from '../../../components/table/DataTable.js';
import type { ObjVersion } from '../objectQueries.js';
import { useObjectView } from '../objectViewState.js';
import { useLastLabelError } from './useLabelMutation.js';
import { versionColumns } from './versionColumns.js';
import '../objectPage.css';
import '../objects.css';

/** Row height of the versions table (room for the label input). */
const ROW_HEIGHT = 34;
/** Rows in view before the table scrolls. */
const VISIBLE_ROWS = 5;

const getRowId = (v: ObjVersion) => v.digest;
const noSorting = () => undefined;

/** Props: the versions (newest first) and the digest on show. */
export interface VersionsTableProps {
  projectId: string;
  objectId: string;
  versions: ObjVersion[];
  selectedDigest: string | null;
}

/** Versions table. */
export function VersionsTable({ projectId, objectId, versions, selectedDigest }: VersionsTableProps) {
  const [, update] = useObjectView();
  const scrollRef = useRef<HTMLDivElement>(null);
  const labelError = useLastLabelError({ projectId, objectId });
  const [dismissed, setDismissed] = useState(0);
  const getRow = useCallback((i: number) => versions[i], [versions]);
  const rowSelection = useMemo(() => (selectedDigest ? { [selectedDigest]: true } : {}), [selectedDigest]);
  const onRowClick = useCallback((v: ObjVersion) => update({ version: v.digest, path: null, row: null }, { push: true }), [update]);
  const height = Math.min(versions.length, VISIBLE_ROWS) * ROW_HEIGHT + 34;

  return (
    <div className="versions">
      {labelError && labelError.id > dismissed && (
        <div key={labelError.id} className="label-error" role="alert">
          <span>{labelError.text}</span>
          <button type="button" className="button small ghost" onClick={() => setDismissed(labelError.id)}>
            Dismiss
          </button>
        </div>
      )}
      <div className="versions-table" style={{ height }}>
        <DataTable
          ariaLabel="Versions"
          columns={versionColumns}
          rowCount={versions.length}
          getRow={getRow}
          getRowId={getRowId}
          scrollRef={scrollRef}
          rowHeight={ROW_HEIGHT}
          sorting={[]}
          onSortingChange={noSorting}
          rowSelection={rowSelection}
          onRowClick={onRowClick}
        />
      </div>
    </div>
  );
}
