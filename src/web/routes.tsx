/**
 * Every dashboard route, as react-router's declarative `<Routes>` (routing.tsx says why not the
 * data router). Pages are code-split (`deferComponent`) so the first load carries only the shell;
 * loaders are fetched on first use and run when their route renders, so a page's queries start
 * at the same moment as its code download instead of after it (docs/architecture.md "Conventions").
 */
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useParams } from 'react-router-dom';
import { AppLayout } from './app/AppLayout.js';
import { comingSoonPages } from './app/sections.js';
import { deferComponent } from './lib/deferredComponent.js';
import { deferLoader, RequireSession, RouteErrors, RoutePage, startLoaderEarly, type ProjectPage } from './app/routing.js';

/** A component from a lazily imported module, for the routes that are not a `RoutePage`. */
const lazyComponent = <M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) =>
  lazy(() => load().then((m) => ({ default: pick(m) })));

const NotFound = lazyComponent(
  () => import('./app/NotFound.js'),
  (m) => m.NotFound,
);
const ComingSoon = lazyComponent(
  () => import('./app/ComingSoon.js'),
  (m) => m.ComingSoon,
);
const LoginPage = deferComponent(
  () => import('./app/LoginPage.js'),
  (m) => m.LoginPage,
);
const ProjectsPage = deferComponent(
  () => import('./features/projects/ProjectsPage.js'),
  (m) => m.ProjectsPage,
);
const CallsPage = deferComponent(
  () => import('./features/calls/CallsPage.js'),
  (m) => m.CallsPage,
);
const TracePage = deferComponent(
  () => import('./features/traces/TracePage.js'),
  (m) => m.TracePage,
);
const ThreadsPage = deferComponent(
  () => import('./features/threads/ThreadsPage.js'),
  (m) => m.ThreadsPage,
);
const ThreadPage = deferComponent(
  () => import('./features/threads/thread/ThreadPage.js'),
  (m) => m.ThreadPage,
);
const EvaluationsPage = deferComponent(
  () => import('./features/evaluations/EvaluationsPage.js'),
  (m) => m.EvaluationsPage,
);
const RunPage = deferComponent(
  () => import('./features/evaluations/runs/RunPage.js'),
  (m) => m.RunPage,
);
const ComparePage = deferComponent(
  () => import('./features/evaluations/compare/ComparePage.js'),
  (m) => m.ComparePage,
);
const PlaygroundPage = deferComponent(
  () => import('./features/playground/PlaygroundPage.js'),
  (m) => m.PlaygroundPage,
);
const JudgesPage = deferComponent(
  () => import('./features/judges/JudgesPage.js'),
  (m) => m.JudgesPage,
);
const MonitorsPage = deferComponent(
  () => import('./features/monitors/MonitorsPage.js'),
  (m) => m.MonitorsPage,
);
const DashboardPage = deferComponent(
  () => import('./features/dashboards/DashboardPage.js'),
  (m) => m.DashboardPage,
);
const ObjectsPage = deferComponent(
  () => import('./features/objects/ObjectsPage.js'),
  (m) => m.ObjectsPage,
);
const ObjectPage = deferComponent(
  () => import('./features/objects/ObjectPage.js'),
  (m) => m.ObjectPage,
);
const TablePage = deferComponent(
  () => import('./features/objects/tables/TablePage.js'),
  (m) => m.TablePage,
);
const SettingsPage = deferComponent(
  () => import('./features/settings/SettingsPage.js'),
  (m) => m.SettingsPage,
);
const QueuesPage = deferComponent(
  () => import('./features/annotation/queues/QueuesPage.js'),
  (m) => m.QueuesPage,
);
const QueuePage = deferComponent(
  () => import('./features/annotation/queues/QueuePage.js'),
  (m) => m.QueuePage,
);
const ReviewPage = deferComponent(
  () => import('./features/annotation/review/ReviewPage.js'),
  (m) => m.ReviewPage,
);

/** `/<entity>/<project>` (and the SDKs' `.../weave` link) open the project's calls. */
function ToCalls() {
  const { entity, project } = useParams();
  return <Navigate replace to={`/${entity}/${project}/calls`} />;
}

/**
 * The route table, given the app's query client (loaders prefetch into it), and what starts the
 * first page's loader before the session check answers.
 */
export function createRoutes(queryClient: QueryClient) {
  const evaluations = () => import('./features/evaluations/evaluationLoaders.js');
  const objects = () => import('./features/objects/objectLoaders.js');
  const annotation = () => import('./features/annotation/annotationLoaders.js');
  const settings = () => import('./features/settings/settingsLoader.js');
  const loaders = {
    projects: deferLoader(
      () => import('./features/projects/ProjectsPage.js'),
      (m) => m.projectsLoader(queryClient),
    ),
    calls: deferLoader(
      () => import('./features/calls/callsLoader.js'),
      (m) => m.callsLoader(queryClient),
    ),
    trace: deferLoader(
      () => import('./features/traces/traceLoader.js'),
      (m) => m.traceLoader(queryClient),
    ),
    threads: deferLoader(
      () => import('./features/threads/threadsLoader.js'),
      (m) => m.threadsLoader(queryClient),
    ),
    thread: deferLoader(
      () => import('./features/threads/thread/threadLoader.js'),
      (m) => m.threadLoader(queryClient),
      (m) => m.threadShouldRevalidate,
    ),
    evaluations: deferLoader(evaluations, (m) => m.evaluationsLoader(queryClient)),
    run: deferLoader(evaluations, (m) => m.runLoader(queryClient)),
    compare: deferLoader(evaluations, (m) => m.compareLoader(queryClient)),
    dashboard: deferLoader(
      () => import('./features/dashboards/dashboardLoader.js'),
      (m) => m.dashboardLoader(queryClient),
    ),
    // A call ref (`weave:///…/call/<id>`) opens its trace with the call selected.
    callRef: deferLoader(objects, (m) => m.callRefLoader(queryClient)),
    objects: deferLoader(objects, (m) => m.objectsLoader(queryClient)),
    object: deferLoader(
      objects,
      (m) => m.objectLoader(queryClient),
      (m) => m.objectShouldRevalidate,
    ),
    table: deferLoader(objects, (m) => m.tableLoader(queryClient)),
    settings: deferLoader(settings, (m) => m.settingsLoader(queryClient)),
    queues: deferLoader(annotation, (m) => m.queuesLoader(queryClient)),
    queue: deferLoader(annotation, (m) => m.queueLoader(queryClient)),
    review: deferLoader(
      annotation,
      (m) => m.reviewLoader(queryClient),
      (m) => m.reviewShouldRevalidate,
    ),
  };
  // A project's pages: routed below and matched by `startLoaderEarly` (first page load). The
  // links the Weave SDKs print with WANDB_BASE_URL pointing here are a call
  // (`<base>/<entity>/<project>/r/call/<id>`) and the project (`.../weave`, ToCalls below).
  const projectPages: ProjectPage[] = [
    { path: 'calls', page: CallsPage, loader: loaders.calls },
    { path: 'traces/:traceId', page: TracePage, loader: loaders.trace },
    { path: 'threads', page: ThreadsPage, loader: loaders.threads },
    { path: 'threads/:threadId', page: ThreadPage, loader: loaders.thread },
    { path: 'evaluations', page: EvaluationsPage, loader: loaders.evaluations },
    { path: 'evaluations/runs/:runId', page: RunPage, loader: loaders.run },
    { path: 'evaluations/compare', page: ComparePage, loader: loaders.compare },
    { path: 'playground', page: PlaygroundPage },
    { path: 'judges', page: JudgesPage },
    { path: 'monitors', page: MonitorsPage },
    { path: 'dashboards', page: DashboardPage, loader: loaders.dashboard },
    { path: 'calls/:callId', loader: loaders.callRef },
    { path: 'r/call/:callId', loader: loaders.callRef },
    { path: 'objects', page: ObjectsPage, loader: loaders.objects },
    { path: 'objects/:objectId', page: ObjectPage, loader: loaders.object },
    { path: 'tables/:digest', page: TablePage, loader: loaders.table },
    { path: 'settings', page: SettingsPage, loader: loaders.settings },
    { path: 'annotation', page: QueuesPage, loader: loaders.queues },
    { path: 'annotation/:queueId', page: QueuePage, loader: loaders.queue },
    { path: 'annotation/:queueId/review', page: ReviewPage, loader: loaders.review },
  ];
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
          <Route index element={<RoutePage page={ProjectsPage} loader={loaders.projects} />} />
          <Route path=":entity/:project">
            <Route index element={<ToCalls />} />
            {projectPages.map(({ path, page, loader }) => (
              <Route key={path} path={path} element={<RoutePage page={page} loader={loader} />} />
            ))}
            <Route path="weave" element={<ToCalls />} />
            {comingSoonPages.map((p) => (
              <Route key={p.path} path={p.path} element={<ComingSoon page={p} />} />
            ))}
          </Route>
          <Route path="settings" element={<RoutePage page={SettingsPage} loader={loaders.settings} />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
  const firstPages = [
    { pattern: '/', page: ProjectsPage, loader: loaders.projects },
    { pattern: '/settings', page: SettingsPage, loader: loaders.settings },
    ...projectPages.map((p) => ({ ...p, pattern: `/:entity/:project/${p.path}` })),
  ];
  return { element, startLoaderEarly: (url: URL) => startLoaderEarly(firstPages, url) };
}
