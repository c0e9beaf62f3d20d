/**
 * The saved views of one page, listed under its entry in the project navigation; the one whose
 * URL is the current one is marked, the page's default carries a note (docs/saved-views.md).
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { isCurrentView, pathOf, type ViewType } from './savedViewModel.js';
import { defaultViewsQueryOptions, savedViewsQueryOptions } from './savedViewQueries.js';
import './savedViews.css';

export function SavedViewLinks({ projectId, viewType }: { projectId: string; viewType: ViewType }) {
  const views = useQuery(savedViewsQueryOptions(projectId));
  const defaults = useQuery(defaultViewsQueryOptions(projectId));
  const { pathname, search } = useLocation();
  const path = `/${projectId}/${pathOf(viewType)}`;
  const mine = (views.data ?? []).filter((v) => v.viewType === viewType);
  if (!mine.length) return null;
  return (
    <ul className="sidenav-views" aria-label={`Saved views of ${pathOf(viewType)}`}>
      {mine.map((v) => {
        const current = pathname === path && isCurrentView(v, search);
        return (
          <li key={v.objectId}>
            <Link
              to={`${path}${v.search}`}
              className={`sidenav-view${current ? ' active' : ''}`}
              aria-current={current ? 'page' : undefined}
            >
              {v.label}
              {defaults.data?.[viewType] === v.objectId && <span className="saved-view-default">default</span>}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
