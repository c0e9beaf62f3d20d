/**
 * "Views" on the Calls, Threads and Evaluations pages: saves the page's current URL state
 * (filters, sort, columns, time range) as a named view shared with the project, optionally as the
 * page's default, and lists the page's views to open, make default or delete (docs/saved-views.md).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { EditorActions } from '../../components/ui/EditorActions.js';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { useCan } from '../auth/useCan.js';
import { pathOf, type ViewType } from './savedViewModel.js';
import { defaultViewsQueryOptions, savedViewsQueryOptions, useDeleteView, useSaveView, useSetDefaultView } from './savedViewQueries.js';
import './savedViews.css';

export function SavedViewsButton({ viewType }: { viewType: ViewType }) {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const { search } = useLocation();
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const views = useQuery(savedViewsQueryOptions(projectId));
  const defaults = useQuery(defaultViewsQueryOptions(projectId));
  const save = useSaveView(projectId);
  const setDefault = useSetDefaultView(projectId);
  const remove = useDeleteView(projectId);
  const canSave = useCan(projectId)('objCreate');
  const mine = (views.data ?? []).filter((v) => v.viewType === viewType);
  const current = defaults.data?.[viewType] ?? null;
  const problem = label.trim() ? null : 'Name the view.';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem) return;
    save.mutate(
      { label: label.trim(), viewType, search, makeDefault },
      {
        onSuccess: () => {
          setLabel('');
          setMakeDefault(false);
          setOpen(false);
        },
      },
    );
  };

  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Views
      </button>
      {open && (
        <ModalDialog title="Saved views" onClose={() => setOpen(false)} className="saved-views-dialog">
          {mine.length === 0 ? (
            <p className="muted small saved-views-empty">No saved views of this page yet.</p>
          ) : (
            <ul className="saved-views-list" aria-label="Views of this page">
              {mine.map((v) => (
                <li key={v.objectId}>
                  <Link to={`/${projectId}/${pathOf(viewType)}${v.search}`} onClick={() => setOpen(false)}>
                    {v.label}
                  </Link>
                  {current === v.objectId ? (
                    <span className="saved-view-default">default</span>
                  ) : (
                    canSave.allowed && (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Make ${v.label} the default`}
                        disabled={setDefault.isPending}
                        onClick={() => setDefault.mutate({ viewType, objectId: v.objectId })}
                      >
                        Make default
                      </button>
                    )
                  )}
                  {canSave.allowed && current === v.objectId && (
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Stop using ${v.label} as the default`}
                      disabled={setDefault.isPending}
                      onClick={() => setDefault.mutate({ viewType, objectId: null })}
                    >
                      No default
                    </button>
                  )}
                  {canSave.allowed && (
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Delete view ${v.label}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(v.objectId)}
                    >
                      Delete
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {canSave.allowed ? (
            <form className="saved-views-form" onSubmit={submit} aria-label="Save the current view">
              <label className="field">
                <span>Name of the current view</span>
                <input className="input" value={label} onChange={(e) => setLabel(e.target.value)} />
              </label>
              <label className="toggle">
                <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} />
                Default for everyone opening this page without a view
              </label>
              <EditorActions
                problem={problem}
                started={label !== ''}
                error={save.error ?? setDefault.error ?? remove.error}
                pending={save.isPending}
                submitLabel="Save view"
                onCancel={() => setOpen(false)}
              />
            </form>
          ) : (
            <p className="muted small">{canSave.reason}</p>
          )}
        </ModalDialog>
      )}
    </>
  );
}
