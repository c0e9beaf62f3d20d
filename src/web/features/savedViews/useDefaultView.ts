/**
 * Applies the project's default view when a page opens without any URL state (a fresh visit):
 * once per mount, so clearing every filter afterwards stays cleared (docs/saved-views.md
 * "Default view"). A navigation, not a fetch: the data comes from the saved views' queries.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ViewType } from './savedViewModel.js';
import { defaultViewsQueryOptions, savedViewsQueryOptions } from './savedViewQueries.js';

export function useDefaultView(projectId: string, viewType: ViewType): void {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const fresh = useRef(search === '' || search === '?');
  const views = useQuery(savedViewsQueryOptions(projectId));
  const defaults = useQuery(defaultViewsQueryOptions(projectId));
  useEffect(() => {
    if (!fresh.current || !views.data || !defaults.data) return;
    fresh.current = false;
    // Only while nothing has been chosen on the page since it opened.
    if (search !== '' && search !== '?') return;
    const id = defaults.data[viewType];
    const view = id ? views.data.find((v) => v.objectId === id) : undefined;
    if (view?.search) void navigate(`${pathname}${view.search}`, { replace: true });
  }, [views.data, defaults.data, viewType, search, pathname, navigate]);
}
