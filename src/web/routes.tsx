/**
 * Every dashboard route. Pages are code-split with `lazy` so the first load carries only the
 * shell; loaders are static (small modules in the main chunk), so a page's queries start at the
 * same moment as its code download instead of after it (STYLE.md §4 rule 8).
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { HttpError } from '../client/index.js';
import { AppLayout } from './app/AppLayout.js';
import { ComingSoon, comingSoonPages } from './app/ComingSoon.js';
import { NotFound } from './app/NotFound.js';
import { RouteError } from './app/RouteError.js';
import { Splash } from './app/Splash.js';
import { whoamiQueryOptions } from './features/auth/authQueries.js';
import { loginUrl } from './lib/signOut.js';

/**
 * A route loader whose module is fetched on first use: the loaders (and the query modules they
 * import) stay out of the initial JavaScript, and the small loader chunk downloads alongside
 * the page's own chunk, so the data request still starts before the page code has arrived.
 */
function deferLoader<M>(load: () => Promise<M>, make: (m: M) => LoaderFunction): LoaderFunction {
  let loader: Promise<LoaderFunction> | null = null;
  return async (args, context) => (await (loader ??= load().then(make)))(args, context);
}

/** Sends signed-out visitors to /login, remembering where they wanted to go. */
function requireSession(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    try {
      return await queryClient.ensureQueryData(whoamiQueryOptions());
    } catch (error) {
      // No session cookie, or its session ended: sign in, then come back to the page asked for.
      if (error instanceof HttpError && error.status === 401) {
        queryClient.removeQueries({ queryKey: whoamiQueryOptions().queryKey });
        throw redirect(loginUrl(url.pathname + url.search + url.hash));
      }
      throw error;
    }
  };
}

/** The route table, given the app's query client (loaders prefetch into it). */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: '/login',
      lazy: async () => ({ Component: (await import('./app/LoginPage.js')).LoginPage }),
      hydrateFallbackElement: <Splash />,
    },
    {
      id: 'session',
      path: '/',
      element: <AppLayout />,
      loader: requireSession(queryClient),
      errorElement: <RouteError />,
      hydrateFallbackElement: <Splash />,
      children: [
        {
          // Pathless, so a failing page shows its error inside the shell, navigation intact.
          errorElement: <RouteError />,
          children: [
            {
              index: true,
              lazy: async () => {
                const m = await import('./features/projects/ProjectsPage.js');
                return { Component: m.ProjectsPage, loader: m.projectsLoader(queryClient) };
              },
            },
            {
              path: ':entity/:project',
              children: [
                { index: true, loader: ({ params }) => redirect(`/${params.entity}/${params.project}/calls`) },
                {
                  path: 'calls',
                  loader: deferLoader(
                    () => import('./features/calls/callsLoader.js'),
                    (m) => m.callsLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/calls/CallsPage.js')).CallsPage }),
                },
                {
                  path: 'traces/:traceId',
                  loader: deferLoader(
                    () => import('./features/traces/traceLoader.js'),
                    (m) => m.traceLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/traces/TracePage.js')).TracePage }),
                },
                {
                  path: 'threads',
                  loader: deferLoader(
                    () => import('./features/threads/threadsLoader.js'),
                    (m) => m.threadsLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/threads/ThreadsPage.js')).ThreadsPage }),
                },
                {
                  path: 'threads/:threadId',
                  loader: deferLoader(
                    () => import('./features/threads/thread/threadLoader.js'),
                    (m) => m.threadLoader(queryClient),
                  ),
                  lazy: async () => {
                    const [page, loaders] = await Promise.all([
                      import('./features/threads/thread/ThreadPage.js'),
                      import('./features/threads/thread/threadLoader.js'),
                    ]);
                    return { Component: page.ThreadPage, shouldRevalidate: loaders.threadShouldRevalidate };
                  },
                },
                {
                  path: 'evaluations',
                  loader: deferLoader(
                    () => import('./features/evaluations/evaluationLoaders.js'),
                    (m) => m.evaluationsLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/evaluations/EvaluationsPage.js')).EvaluationsPage }),
                },
                {
                  path: 'evaluations/runs/:runId',
                  loader: deferLoader(
                    () => import('./features/evaluations/evaluationLoaders.js'),
                    (m) => m.runLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/evaluations/runs/RunPage.js')).RunPage }),
                },
                {
                  path: 'evaluations/compare',
                  loader: deferLoader(
                    () => import('./features/evaluations/evaluationLoaders.js'),
                    (m) => m.compareLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/evaluations/compare/ComparePage.js')).ComparePage }),
                },
                {
                  path: 'playground',
                  lazy: async () => ({ Component: (await import('./features/playground/PlaygroundPage.js')).PlaygroundPage }),
                },
                {
                  path: 'judges',
                  lazy: async () => ({ Component: (await import('./features/judges/JudgesPage.js')).JudgesPage }),
                },
                {
                  path: 'monitors',
                  lazy: async () => ({ Component: (await import('./features/monitors/MonitorsPage.js')).MonitorsPage }),
                },
                {
                  path: 'dashboards',
                  loader: deferLoader(
                    () => import('./features/dashboards/dashboardLoader.js'),
                    (m) => m.dashboardLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/dashboards/DashboardPage.js')).DashboardPage }),
                },
                // A call ref (`weave:///…/call/<id>`) opens its trace with the call selected.
                {
                  path: 'calls/:callId',
                  loader: deferLoader(
                    () => import('./features/objects/objectLoaders.js'),
                    (m) => m.callRefLoader(queryClient),
                  ),
                },
                // The links the Weave SDKs print with WANDB_BASE_URL pointing here: a call
                // (`<base>/<entity>/<project>/r/call/<id>`) and the project (`.../weave`).
                {
                  path: 'r/call/:callId',
                  loader: deferLoader(
                    () => import('./features/objects/objectLoaders.js'),
                    (m) => m.callRefLoader(queryClient),
                  ),
                },
                { path: 'weave', loader: ({ params }) => redirect(`/${params.entity}/${params.project}/calls`) },
                {
                  path: 'objects',
                  loader: deferLoader(
                    () => import('./features/objects/objectLoaders.js'),
                    (m) => m.objectsLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/objects/ObjectsPage.js')).ObjectsPage }),
                },
                {
                  path: 'objects/:objectId',
                  loader: deferLoader(
                    () => import('./features/objects/objectLoaders.js'),
                    (m) => m.objectLoader(queryClient),
                  ),
                  lazy: async () => {
                    const [page, loaders] = await Promise.all([
                      import('./features/objects/ObjectPage.js'),
                      import('./features/objects/objectLoaders.js'),
                    ]);
                    return { Component: page.ObjectPage, shouldRevalidate: loaders.objectShouldRevalidate };
                  },
                },
                {
                  path: 'tables/:digest',
                  loader: deferLoader(
                    () => import('./features/objects/objectLoaders.js'),
                    (m) => m.tableLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/objects/tables/TablePage.js')).TablePage }),
                },
                {
                  path: 'settings',
                  loader: deferLoader(
                    () => import('./features/settings/settingsLoader.js'),
                    (m) => m.settingsLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/settings/SettingsPage.js')).SettingsPage }),
                },
                {
                  path: 'annotation',
                  loader: deferLoader(
                    () => import('./features/annotation/annotationLoaders.js'),
                    (m) => m.queuesLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/annotation/queues/QueuesPage.js')).QueuesPage }),
                },
                {
                  path: 'annotation/:queueId',
                  loader: deferLoader(
                    () => import('./features/annotation/annotationLoaders.js'),
                    (m) => m.queueLoader(queryClient),
                  ),
                  lazy: async () => ({ Component: (await import('./features/annotation/queues/QueuePage.js')).QueuePage }),
                },
                {
                  path: 'annotation/:queueId/review',
                  loader: deferLoader(
                    () => import('./features/annotation/annotationLoaders.js'),
                    (m) => m.reviewLoader(queryClient),
                  ),
                  lazy: async () => {
                    const [page, loaders] = await Promise.all([
                      import('./features/annotation/review/ReviewPage.js'),
                      import('./features/annotation/annotationLoaders.js'),
                    ]);
                    return { Component: page.ReviewPage, shouldRevalidate: loaders.reviewShouldRevalidate };
                  },
                },
                ...comingSoonPages.map((page) => ({ path: page.path, element: <ComingSoon page={page} /> })),
              ],
            },
            {
              path: 'settings',
              loader: deferLoader(
                () => import('./features/settings/settingsLoader.js'),
                (m) => m.settingsLoader(queryClient),
              ),
              lazy: async () => ({ Component: (await import('./features/settings/SettingsPage.js')).SettingsPage }),
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}
