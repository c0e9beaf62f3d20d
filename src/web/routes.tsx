/**
 * Every dashboard route, as react-router's declarative `<Routes>` (routing.tsx says why not the
 * data router), built from the list of pages in app/pages.ts. Pages are code-split
 * (`deferComponent`) so the first load carries only the shell; loaders are fetched on first use
 * and run when their route renders, so a page's queries start at the same moment as its code
 * download instead of after it (docs/architecture.md "Conventions").
 */
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useParams } from 'react-router-dom';
import { AppLayout } from './app/AppLayout.js';
// In the main bundle already: the eager error page (RouteError) shows it too.
import { NotFound } from './app/NotFound.js';
import { pages, type PageLoader } from './app/pages.js';
import { deferComponent } from './lib/deferredComponent.js';
import { RequireSession, RouteErrors, RoutePage, startLoaderEarly, type DeferredLoader } from './app/routing.js';

/** A component from a lazily imported module, for the routes that are not a `RoutePage`. */
const lazyComponent = <M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) =>
  lazy(() => load().then((m) => ({ default: pick(m) })));

const ComingSoon = lazyComponent(
  () => import('./app/ComingSoon.js'),
  (m) => m.ComingSoon,
);
const LoginPage = deferComponent(
  () => import('./app/LoginPage.js'),
  (m) => m.LoginPage,
);

/** `/<entity>/<project>` (and the SDKs' `.../weave` link) open the project's calls. */
function ToCalls() {
  const { entity, project } = useParams();
  return <Navigate replace to={`/${entity}/${project}/calls`} />;
}

/**
 * The route table, given the app's query client (loaders prefetch into it), and what starts the
 * first page's loader before the session check answers. The pages come from app/pages.ts.
 */
export function createRoutes(queryClient: QueryClient) {
  // One loader per definition, shared by the routes that use it (settings has two).
  const made = new Map<PageLoader, DeferredLoader>();
  const loaderOf = (def: PageLoader | undefined) => {
    if (!def) return undefined;
    if (!made.has(def)) made.set(def, def(queryClient));
    return made.get(def);
  };
  const routed = pages.map((p) => ({ ...p, loader: loaderOf(p.loader), top: p.path.startsWith('/') }));
  const route = ({ path, page, loader, nav }: (typeof routed)[number]) =>
    nav?.soon ? (
      <Route key={path} path={path} element={<ComingSoon page={nav} />} />
    ) : path === '/' ? (
      <Route key={path} index element={<RoutePage page={page} loader={loader} />} />
    ) : (
      <Route key={path} path={path.replace(/^\//, '')} element={<RoutePage page={page} loader={loader} />} />
    );
  const element = (
    <Routes>
      <Route path="/login" element={<RoutePage page={LoginPage} />} />
      <Route
        path="/"
        element={
          <RouteErrors>
            <RequireSession>
              <AppLayout />
            </RequireSession>
          </RouteErrors>
        }
      >
        {/* Pathless, so a failing page shows its error inside the shell, navigation intact. */}
        <Route
          element={
            <RouteErrors>
              <Outlet />
            </RouteErrors>
          }
        >
          {routed.filter((p) => p.top).map(route)}
          <Route path=":entity/:project">
            <Route index element={<ToCalls />} />
            {routed.filter((p) => !p.top).map(route)}
            <Route path="weave" element={<ToCalls />} />
          </Route>
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
  const firstPages = routed.filter((p) => !p.nav?.soon).map((p) => ({ ...p, pattern: p.top ? p.path : `/:entity/:project/${p.path}` }));
  return { element, startLoaderEarly: (url: URL) => startLoaderEarly(firstPages, url) };
}
