/**
 * What the dashboard's routes need beyond react-router's declarative `<Routes>`: route loaders,
 * error pages and the session check. The data router (`createBrowserRouter`) did these, but it
 * is 17 KB gzipped more of the initial JavaScript than `<BrowserRouter>` (docs/performance.md: initial JS
 * ≤ 100 KB), and the dashboard's loaders only start queries, so they need little of it:
 *
 * - `RoutePage` runs a page's loader when the route renders, in the same render that starts the
 *   page's code download (`deferComponent`), so data and code still load in parallel (docs/architecture.md
 *   "Conventions"). It runs again when the URL changes, unless the route's `shouldRevalidate` says no.
 *   A loader answering `redirect(...)` replaces the URL; one that throws shows the error page.
 * - A page mounts once its code is in and its loader has settled, with a plain spinner until
 *   then, never a Suspense fallback (deferredComponent.ts says why): the fallback's 300 ms
 *   reveal throttle put every page's first rows at least 300 ms after the session check (issue
 *   18). So a loader whose page reads queries with suspense returns a promise of them, and the
 *   page mounts with them in the cache.
 * - `RouteErrorBoundary` catches what a page throws (a failed suspense query, a loader error)
 *   and shows `RouteError` inside the shell; Retry remounts the page, rerunning its loader.
 * - `RequireSession` sends signed-out visitors to /login, remembering where they were going.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Component, Suspense, useEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import {
  matchPath,
  Navigate,
  useLocation,
  useNavigate,
  useParams,
  type LoaderFunctionArgs,
  type NavigateFunction,
  type ShouldRevalidateFunctionArgs,
} from 'react-router-dom';
import { HttpError } from '../../client/index.js';
import { whoamiQueryOptions } from '../features/auth/authQueries.js';
import { useDeferred, type DeferredComponent } from '../lib/deferredComponent.js';
import { loginUrl } from '../lib/signOut.js';
import { PageLoading } from './PageLoading.js';
// Eager, not code-split: it is what shows when code-split pages fail to load (a server gone away).
import { RouteError } from './RouteError.js';
import { Splash } from './Splash.js';

/**
 * A route loader: starts the page's queries; may answer a redirect Response or throw, or a
 * promise of either, which the page waits for before it mounts (see the module comment).
 */
export type RouteLoader = (args: LoaderFunctionArgs) => unknown;
/** Whether a URL change reruns the loader (react-router's signature; the default reruns). */
export type ShouldRevalidate = (args: ShouldRevalidateFunctionArgs) => boolean;

/** A route's loader and when it reruns, from a module fetched on first use. */
export interface LoadedLoader {
  loader: RouteLoader;
  shouldRevalidate?: ShouldRevalidate;
}

/** A route's loader from a module fetched on first use (`deferLoader`). */
export interface DeferredLoader {
  (): Promise<LoadedLoader>;
  /** The loader, once its module is in: a later page visit runs it in the same render. */
  loaded(): LoadedLoader | null;
}

/**
 * A loader whose module is fetched on first use: the loaders (and the query modules they import)
 * stay out of the initial JavaScript; the small loader chunk downloads alongside the page's own.
 */
export function deferLoader<M>(
  load: () => Promise<M>,
  make: (m: M) => RouteLoader,
  revalidate?: (m: M) => ShouldRevalidate,
): DeferredLoader {
  let loading: Promise<LoadedLoader> | null = null;
  let loaded: LoadedLoader | null = null;
  const get = () => (loading ??= load().then((m) => (loaded = { loader: make(m), shouldRevalidate: revalidate?.(m) })));
  return Object.assign(get, { loaded: () => loaded });
}

/** The redirect a loader answered (`redirect(url)` builds a 302 Response), if it did. */
function redirectOf(result: unknown): string | null {
  if (!(result instanceof Response) || result.status < 300 || result.status >= 400) return null;
  return result.headers.get('Location');
}

/** Props of one routed page. */
export interface RoutePageProps {
  /** The page's component, code-split; none for loader-only routes (redirects). */
  page?: DeferredComponent;
  loader?: DeferredLoader;
}

/**
 * On the first page load, starts that page's loader at once, beside the session check, instead
 * of after it: `RoutePage` runs only once whoami has answered, and waiting for it put a round
 * trip and the shell's first render before every page's data (docs/performance.md). `RoutePage` runs the
 * loader again when it renders (a prefetch of fresh data is a no-op) and handles its redirect
 * or failure; this run's outcome is ignored. Signed out, its requests fail 401 and the app goes
 * to /login, as the session check does.
 */
export function startLoaderEarly(pages: readonly (RoutePageProps & { pattern: string })[], url: URL): void {
  for (const { pattern, page, loader } of pages) {
    const match = matchPath(pattern, url.pathname);
    if (!match) continue;
    // The page's code too: otherwise its download starts only when whoami has answered.
    page?.load().catch(() => undefined);
    const args = { params: match.params, request: new Request(url), context: undefined } as unknown as LoaderFunctionArgs;
    loader?.()
      .then(({ loader: run }) => run(args))
      .catch(() => undefined);
    return;
  }
}

/** A page with its loader; see the module comment. */
export function RoutePage({ page, loader }: RoutePageProps) {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<{ error: unknown; url: string } | null>(null);
  // Whether the first loader run has settled: the page mounts after it, and stays mounted. A
  // loader already fetched that answers at once settles in the render that ran it (`settledNow`),
  // so moving to a page seen before shows no spinner for a frame.
  const [loaderSettled, settleLoader] = useReducer(() => true, !loader);
  const settledNow = useRef(false);
  const { Component: Page, error: codeFailed } = useDeferred(page);
  const url = new URL(location.pathname + location.search, window.location.origin).href;
  const lastRun = useRef<string | null>(null);
  // In render, not in an effect: the loader's requests start with the page's code download.
  // Loaders only prefetch into the query cache, so running one twice is harmless.
  if (loader && lastRun.current !== url) {
    const previous = lastRun.current;
    lastRun.current = url;
    const args = { params, request: new Request(url), context: undefined } as unknown as LoaderFunctionArgs;
    const run = ({ loader: load, shouldRevalidate }: LoadedLoader) => {
      const rerun =
        previous === null ||
        !shouldRevalidate ||
        shouldRevalidate({
          currentUrl: new URL(previous),
          nextUrl: new URL(url),
          currentParams: params,
          nextParams: params,
          defaultShouldRevalidate: true,
        } as ShouldRevalidateFunctionArgs);
      return rerun ? load(args) : null;
    };
    const ready = loader.loaded();
    let outcome: Promise<unknown>;
    try {
      const result = ready ? run(ready) : loader().then(run);
      if (!(result instanceof Promise)) settledNow.current = true;
      outcome = Promise.resolve(result);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    void outcome
      .then(
        (result) => {
          const to = redirectOf(result);
          if (to && lastRun.current === url) void navigate(to, { replace: true });
        },
        (error: unknown) => {
          if (lastRun.current === url) setFailure({ error, url });
        },
      )
      .finally(settleLoader);
  }
  if (failure?.url === url) throw failure.error;
  if (codeFailed) throw codeFailed;
  if (!page) return null;
  return Page && (loaderSettled || settledNow.current) ? <Page /> : <PageLoading />;
}

/** Catches a page's errors and shows them in place; a new path or Retry clears them. */
export class RouteErrorBoundary extends Component<
  { children: ReactNode; path: string },
  { error: unknown; path: string; attempt: number }
> {
  override state = { error: null as unknown, path: this.props.path, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { path: string }, state: { path: string; error: unknown }) {
    return props.path !== state.path ? { path: props.path, error: null } : null;
  }

  override render() {
    if (this.state.error !== null)
      return <RouteError error={this.state.error} onRetry={() => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }))} />;
    // A retry remounts the page, so its loader runs again.
    return <Suspense key={this.state.attempt}>{this.props.children}</Suspense>;
  }
}

/** The error boundary around the routes, keyed by the current path. */
export function RouteErrors({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <RouteErrorBoundary path={pathname}>{children}</RouteErrorBoundary>;
}

/** The signed-in part of the app: its children once whoami answers, /login when signed out. */
export function RequireSession({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const whoami = useQuery(whoamiQueryOptions());
  const signedOut = whoami.error instanceof HttpError && whoami.error.status === 401;
  useEffect(() => {
    if (signedOut) queryClient.removeQueries({ queryKey: whoamiQueryOptions().queryKey });
  }, [signedOut, queryClient]);
  if (signedOut) return <Navigate replace to={loginUrl(location.pathname + location.search + location.hash)} />;
  if (whoami.error) return <RouteError error={whoami.error} onRetry={() => void whoami.refetch()} />;
  if (!whoami.data) return <Splash />;
  return children;
}

/** Lets code outside React (the query client's sign-out handler) navigate. */
export const outsideNavigation: { navigate: NavigateFunction | null } = { navigate: null };

/** Publishes the router's navigate for `outsideNavigation`. */
export function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    outsideNavigation.navigate = navigate;
  }, [navigate]);
  return null;
}
