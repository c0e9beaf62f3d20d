/**
 * Every dashboard route, as react-router's declarative `<Routes>` (routing.tsx says why not the
 * data router). Pages are code-split (`lazyPage`) so the first load carries only the shell;
 * loaders are fetched on first use and run when their route renders, so a page's queries start
 * at the same moment as its code download instead of after it (STYLE.md §4 rule 8).
 */
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useParams } from 'react-router-dom';
import { AppLayout } from './app/AppLayout.js';
import { comingSoonPages } from './app/sections.js';
import { deferLoader, lazyPage, RequireSession, RouteErrors, RoutePage, startLoaderEarly, type ProjectPage } from './app/routing.js';

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
const LoginPage = lazyPage(
  () => import('./app/LoginPage.js'),
  (m) => m.LoginPage,
);
const ProjectsPage = lazyPage(
  () => import('./features/projects/ProjectsPage.js'),
  (m) => m.ProjectsPage,
);
const CallsPage = lazyPage(
  () => import('./features/calls/CallsPage.js'),
  (m) => m.CallsPage,
);
const TracePage = lazyPage(
  () => import('./features/traces/TracePage.js'),
  (m) => m.TracePage,
);
const ThreadsPage = lazyPage(
  () => import('./features/threads/ThreadsPage.js'),
  (m) => m.ThreadsPage,
);
const ThreadPage = lazyPage(
  () => import('./features/threads/thread/ThreadPage.js'),
  (m) => m.ThreadPage,
);
const EvaluationsPage = lazyPage(
  () => import('./features/evaluations/EvaluationsPage.js'),
  (m) => m.EvaluationsPage,
);
const RunPage = lazyPage(
  () => import('./features/evaluations/runs/RunPage.js'),
  (m) => m.RunPage,
);
const ComparePage = lazyPage(
  () => import('./features/evaluations/compare/ComparePage.js'),
  (m) => m.ComparePage,
);
const PlaygroundPage = lazyPage(
  () => import('./features/playground/PlaygroundPage.js'),
  (m) => m.PlaygroundPage,
);
const JudgesPage = lazyPage(
  () => import('./features/judges/JudgesPage.js'),
  (m) => m.JudgesPage,
);
const MonitorsPage = lazyPage(
  () => import('./features/monitors/MonitorsPage.js'),
  (m) => m.MonitorsPage,
);
const DashboardPage = lazyPage(
  () => import('./features/dashboards/DashboardPage.js'),
  (m) => m.DashboardPage,
);
const ObjectsPage = lazyPage(
  () => import('./features/objects/ObjectsPage.js'),
  (m) => m.ObjectsPage,
);
const ObjectPage = lazyPage(
  () => import('./features/objects/ObjectPage.js'),
  (m) => m.ObjectPage,
);
const TablePage = lazyPage(
  () => import('./features/objects/tables/TablePage.js'),
  (m) => m.TablePage,
);
const SettingsPage = lazyPage(
  () => import('./features/settings/SettingsPage.js'),
  (m) => m.SettingsPage,
);
const QueuesPage = lazyPage(
  () => import('./features/annotation/queues/QueuesPage.js'),
  (m) => m.QueuesPage,
);
const QueuePage = lazyPage(
  () => import('./features/annotation/queues/QueuePage.js'),
  (m) => m.QueuePage,
);
const ReviewPage = lazyPage(
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
  return { element, startLoaderEarly: (url: URL) => startLoaderEarly(projectPages, url) };
}
