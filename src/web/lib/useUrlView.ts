/**
 * A view kept in the URL's search params that answers a change at once.
 *
 * The router commits a search-param change only after the route's loaders have run, inside a
 * transition. Reading the view straight from the committed location therefore lags a click: a
 * controlled checkbox snaps back until the navigation lands, and React Router's functional
 * `setSearchParams` hands its updater the params of the last render, so a second change made
 * while the first is pending silently drops the first. This hook keeps the search string it last
 * asked for until the router's location moves, shows the view from it, and applies every patch on
 * top of it.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Options for one update: `push` makes a history entry, otherwise the entry is replaced. */
export interface UrlViewUpdateOptions {
  push?: boolean;
}

/** The view read from the URL plus an updater that writes a patch back. */
export function useUrlView<V>(
  read: (params: URLSearchParams) => V,
  write: (view: V, params: URLSearchParams) => URLSearchParams,
): [V, (patch: Partial<V>, options?: UrlViewUpdateOptions) => void] {
  const { search: committed } = useLocation();
  const navigate = useNavigate();
  // The search we navigated to, and the committed search it was made from. Once the location
  // moves (our navigation landed, or another one such as Back won), the location rules again.
  const [pending, setPending] = useState<{ from: string; search: string } | null>(null);
  // Forgotten once the location has moved: Back to the very search it was made from (closing
  // a view opened with `push`) must not bring the pending search back.
  if (pending !== null && pending.from !== committed) setPending(null);
  const search = pending !== null && pending.from === committed ? pending.search : committed;
  // What the next patch builds on; an update moves it at once, so two patches in one event compose.
  const latest = useRef({ from: committed, search });
  latest.current = { from: committed, search };
  const view = useMemo(() => read(new URLSearchParams(search)), [read, search]);
  const update = useCallback(
    (patch: Partial<V>, options?: UrlViewUpdateOptions) => {
      const { from, search: current } = latest.current;
      const params = write({ ...read(new URLSearchParams(current)), ...patch }, new URLSearchParams(current));
      const query = params.toString();
      const next = query ? `?${query}` : '';
      latest.current = { from, search: next };
      setPending({ from, search: next });
      void navigate(next || '?', { replace: !options?.push });
    },
    [read, write, navigate],
  );
  return [view, update];
}
