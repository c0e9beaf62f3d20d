/**
 * A view kept in the URL's search params that answers a change at once.
 *
 * The router commits a search-param change only after the route's loaders have run, inside a
 * transition. Reading the view straight from the committed location therefore lags a click: a
 * controlled checkbox snaps back until the navigation lands, and React Router's functional
 * `setSearchParams` hands its updater the params of the last render, so a second change made
 * while the first is pending silently drops the first. This hook keeps the search strings it asked
 * for until the router lands the last of them (or lands elsewhere), shows the view from the
 * newest, and applies every patch on top of it.
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
  // The searches we navigated to since the committed search `from`, oldest first; the view shows
  // the newest. The router lands them one by one, so a landing of one of ours moves `from` and
  // keeps the rest; a location of nobody's list (Back, a link) rules again. Dropping them all on
  // the first landing showed an older row for a moment, and a key pressed then walked from it.
  const [pending, setPending] = useState<{ from: string; sent: string[] } | null>(null);
  if (pending !== null && pending.from !== committed) {
    const landed = pending.sent.indexOf(committed);
    const rest = landed < 0 ? [] : pending.sent.slice(landed + 1);
    setPending(rest.length > 0 ? { from: committed, sent: rest } : null);
  }
  const search = pending !== null && pending.from === committed ? pending.sent[pending.sent.length - 1]! : committed;
  // What the next patch builds on; an update moves it at once, so two patches in one event compose.
  const latest = useRef({ from: committed, search, sent: pending?.from === committed ? pending.sent : [] });
  latest.current = { from: committed, search, sent: pending?.from === committed ? pending.sent : [] };
  const view = useMemo(() => read(new URLSearchParams(search)), [read, search]);
  const update = useCallback(
    (patch: Partial<V>, options?: UrlViewUpdateOptions) => {
      const { from, search: current, sent } = latest.current;
      const params = write({ ...read(new URLSearchParams(current)), ...patch }, new URLSearchParams(current));
      const query = params.toString();
      const next = query ? `?${query}` : '';
      latest.current = { from, search: next, sent: [...sent, next] };
      setPending({ from, sent: latest.current.sent });
      void navigate(next || '?', { replace: !options?.push });
    },
    [read, write, navigate],
  );
  return [view, update];
}
