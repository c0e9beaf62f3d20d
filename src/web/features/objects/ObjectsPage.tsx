/**
 * The Objects page: every versioned object and op of a project (latest version, version count,
 * when it last changed, aliases, tags), in tabs by kind, searchable by name, sortable; all in
 * the URL. A project without objects explains how they get here.
 */
import { useQuery } from '@tanstack/react-query';
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DataTable } from '../../components/table/DataTable.js';
import { useListPlace } from '../../components/table/useListPlace.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatInteger } from '../../lib/format.js';
import { objectColumns, sortObjects } from './objectColumns.js';
import { OBJECT_CATEGORIES, objectCategory } from './objectFields.js';
import { objectsListQueryOptions, type ObjectSummary } from './objectQueries.js';
import { OBJECT_SORT_FIELDS, useObjectsView, type ObjectSortField } from './objectsViewState.js';
import './objects.css';

const getRowId = (s: ObjectSummary) => s.latest.object_id;
const isSortField = (id: string): id is ObjectSortField => (OBJECT_SORT_FIELDS as readonly string[]).includes(id);

/** Objects page. */
export function ObjectsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const navigate = useNavigate();
  const [view, update] = useObjectsView();
  const list = useQuery(objectsListQueryOptions(projectId));
  const scrollRef = useRef<HTMLDivElement>(null);
  const place = useListPlace('objects');

  const all = useMemo(() => list.data ?? [], [list.data]);
  const counts = useMemo(() => {
    const c = new Map<string, number>([['all', all.length]]);
    for (const s of all) c.set(objectCategory(s.latest), (c.get(objectCategory(s.latest)) ?? 0) + 1);
    return c;
  }, [all]);
  const rows = useMemo(() => {
    const needle = view.search.trim().toLowerCase();
    const shown = all.filter(
      (s) =>
        (view.category === 'all' || objectCategory(s.latest) === view.category) &&
        (!needle || s.latest.object_id.toLowerCase().includes(needle)),
    );
    return sortObjects(shown, view.sort);
  }, [all, view.category, view.search, view.sort]);

  const getRow = useCallback((i: number) => rows[i], [rows]);
  const sorting: SortingState = useMemo(() => [{ id: view.sort.field, desc: view.sort.direction === 'desc' }], [view.sort]);
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const first = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (first && isSortField(first.id)) update({ sort: { field: first.id, direction: first.desc ? 'desc' : 'asc' } });
    },
    [sorting, update],
  );
  const onRowClick = useCallback(
    (s: ObjectSummary) => void navigate(`/${entity}/${project}/objects/${encodeURIComponent(s.latest.object_id)}`),
    [navigate, entity, project],
  );

  return (
    <div className="page objects-page">
      <header className="page-header">
        <h1>Objects</h1>
        <span className="muted" aria-live="polite">
          {list.data ? `${formatInteger(rows.length)}${rows.length !== all.length ? ` of ${formatInteger(all.length)}` : ''} objects` : ''}
        </span>
        {list.isFetching && <Spinner label="Updating" />}
      </header>
      {list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading objects" />
        </div>
      ) : all.length === 0 ? (
        <NoObjects />
      ) : (
        <>
          <div className="objects-toolbar">
            <div className="segmented" role="tablist" aria-label="Kind of object">
              {OBJECT_CATEGORIES.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  role="tab"
                  aria-selected={view.category === c.id}
                  className={view.category === c.id ? 'segment active' : 'segment'}
                  onClick={() => update({ category: c.id })}
                >
                  {c.label} <span className="segment-count">{formatInteger(counts.get(c.id) ?? 0)}</span>
                </button>
              ))}
            </div>
            <div className="spacer" />
            <input
              className="input objects-search"
              type="search"
              placeholder="Search by name"
              aria-label="Search objects by name"
              value={view.search}
              onChange={(e) => update({ search: e.target.value })}
            />
          </div>
          <div className="objects-table-wrap">
            <DataTable
              ariaLabel="Objects"
              columns={objectColumns}
              rowCount={rows.length}
              getRow={getRow}
              getRowId={getRowId}
              scrollRef={scrollRef}
              place={place}
              sorting={sorting}
              onSortingChange={onSortingChange}
              onRowClick={onRowClick}
              pageKeys
              empty={
                <div className="empty-state">
                  <p>{emptyMessage(view.category, view.search)}</p>
                  <button type="button" className="button" onClick={() => update({ search: '', category: 'all' })}>
                    Show all objects
                  </button>
                </div>
              }
            />
          </div>
        </>
      )}
    </div>
  );
}

/** Why the table is empty: the search, or no object of this kind. */
function emptyMessage(category: string, search: string): string {
  const kind = OBJECT_CATEGORIES.find((c) => c.id === category && c.id !== 'all')?.label.toLowerCase() ?? 'objects';
  return search ? `No ${kind} match “${search}”.` : `No ${kind} in this project yet.`;
}

/** What a project without objects shows: how objects get published. */
function NoObjects() {
  return (
    <div className="empty-state">
      <p>No objects yet. Ops, datasets, models, scorers and prompts appear here, with every version, once they are published.</p>
      <pre className="objects-snippet">{`import weave

weave.init("${'<entity>/<project>'}")
dataset = weave.Dataset(name="qa", rows=[{"question": "…", "answer": "…"}])
weave.publish(dataset)        # each change publishes a new version`}</pre>
      <p className="muted">Every @weave.op called inside a traced app is versioned here too.</p>
    </div>
  );
}
