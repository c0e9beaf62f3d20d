/**
 * The version on show, in tabs: its value (JSON, opened at a ref's path), its source code (ops
 * and anything with an `obj.py`), one tab per table it points at (a dataset's rows), and a
 * comparison with another version. Datasets open on their rows, ops on their code.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { JsonViewer } from '../../components/json/JsonViewer.js';
import { RefLink } from '../../components/refs/RefLink.js';
import { parseEdges } from '../../lib/refs.js';
import { CodePanel } from './CodePanel.js';
import { findTableFields, objectCategory, pathLabel, resolveRefPath, sourceFile } from './objectFields.js';
import type { ObjVersion } from './objectQueries.js';
import type { ObjectViewState } from './objectViewState.js';
import { TableRowsView } from './tables/TableRowsView.js';
import { VersionDiff } from './versions/VersionDiff.js';
import './objectPage.css';

/** Props: the version on show, all versions (newest first), and the URL view. */
export interface ObjectTabsProps {
  projectId: string;
  obj: ObjVersion;
  versions: ObjVersion[];
  view: ObjectViewState;
  update: (patch: Partial<ObjectViewState>, options?: { push?: boolean }) => void;
}

/** Height of an element, kept up to date (panels size their scrolling viewers to it). */
function useElementHeight<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [height, setHeight] = useState(0);
  useEffect(() => {
    if (!ref.current) return;
    const observer = new ResizeObserver(([entry]) => setHeight(entry!.contentRect.height));
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, []);
  return [ref, height];
}

/** Tabs of one version. */
export function ObjectTabs({ projectId, obj, versions, view, update }: ObjectTabsProps) {
  const [panelRef, panelHeight] = useElementHeight<HTMLDivElement>();
  const file = sourceFile(obj.val);
  const tables = findTableFields(obj.val);
  const edges = view.path ? parseEdges(view.path.split('/')) : null;
  const target = edges?.length ? resolveRefPath(obj.val, edges) : null;
  const targetTable = target?.kind === 'table' ? tables.find((t) => t.label === pathLabel(target.path)) : undefined;

  const tabs: { id: string; label: string }[] = [
    { id: 'value', label: 'Value' },
    ...(file ? [{ id: 'code', label: 'Code' }] : []),
    ...tables.map((t) => ({ id: `table:${t.label}`, label: t.label === 'rows' ? 'Rows' : `Table: ${t.label}` })),
    { id: 'compare', label: 'Compare' },
  ];
  const fallback = targetTable
    ? `table:${targetTable.label}`
    : target
      ? 'value'
      : objectCategory(obj) === 'dataset' && tables[0]
        ? `table:${tables[0].label}`
        : file
          ? 'code'
          : 'value';
  const active = tabs.some((t) => t.id === view.tab) ? view.tab! : fallback;
  const table = tables.find((t) => `table:${t.label}` === active);

  // The other side of a comparison: the URL's, else the version before this one (or after v0).
  const index = versions.findIndex((v) => v.digest === obj.digest);
  const base = view.against ?? versions[index + 1]?.digest ?? versions[index - 1]?.digest ?? null;

  let panel: ReactNode;
  if (active === 'code' && file) {
    panel = <CodePanel projectId={projectId} file={file} />;
  } else if (table) {
    panel = (
      <TableRowsView
        key={table.digest}
        projectId={projectId}
        digest={table.digest}
        ariaLabel={`${table.label} of v${obj.version_index}`}
        sort={view.sort}
        onSortChange={(sort) => update({ sort })}
        selectedRow={view.row ?? (table === targetTable && target?.kind === 'table' ? target.row : null)}
        onSelectRow={(row) => update({ row, path: null })}
      />
    );
  } else if (active === 'compare') {
    panel = (
      <VersionDiff
        projectId={projectId}
        objectId={obj.object_id}
        versions={versions}
        base={base}
        target={obj.digest}
        onPick={({ base: b, target: t }) => update({ ...(b ? { against: b } : {}), ...(t ? { version: t } : {}) })}
      />
    );
  } else {
    panel = (
      <>
        {target?.kind === 'ref' && (
          <p className="path-note">
            The linked path continues in another object: <RefLink uri={target.uri} />
          </p>
        )}
        {panelHeight > 0 && (
          <JsonViewer
            key={`${obj.digest}:${view.path ?? ''}`}
            value={obj.val}
            ariaLabel={`Value of v${obj.version_index}`}
            maxHeight={Math.max(200, panelHeight - 40 - (target?.kind === 'ref' ? 30 : 0))}
            focusPath={target?.path}
          />
        )}
      </>
    );
  }

  return (
    <div className="object-tabs">
      <div className="tabs" role="tablist" aria-label="Version views">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === active}
            className={t.id === active ? 'tab active' : 'tab'}
            onClick={() =>
              update({ tab: t.id === fallback ? null : t.id, ...(t.id.startsWith('table:') ? {} : { row: null, sort: null }) })
            }
          >
            {t.label}
          </button>
        ))}
      </div>
      <div ref={panelRef} className="tab-panel" role="tabpanel" aria-labelledby={`tab-${active}`}>
        {panel}
      </div>
    </div>
  );
}
