/**
 * Every dashboard route. Pages are code-split with `lazy` so the first load carries only the
 * shell; loaders are static (small modules in the main chunk), so a page's queries start at the
 * same moment as its code download instead of after it (STYLE.md §4 rule 8).
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { HttpError } from '../client/index.js';
import { AppLayout } from './app/AppLayout.js';
import { ComingSoon, comingSoonPages } from './app/ComingSoon.js';
import { NotFound } from './app/NotFound.js';
import { RouteError } from './app/RouteError.js';
import { Splash } from './app/Splash.js';
import { queueLoader, queuesLoader, reviewLoader, reviewShouldRevalidate } from './features/annotation/annotationLoaders.js';
import { whoamiQueryOptions } from './features/auth/authQueries.js';
import { callsLoader } from './features/calls/callsLoader.js';
import { dashboardLoader } from './features/dashboards/dashboardLoader.js';
import { compareLoader, evaluationsLoader, runLoader } from './features/evaluations/evaluationLoaders.js';
import { settingsLoader } from './features/settings/settingsLoader.js';
import { callRefLoader, objectLoader, objectShouldRevalidate, objectsLoader, tableLoader } from './features/objects/objectLoaders.js';
import { threadLoader, threadShouldRevalidate } from './features/threads/threadLoader.js';
import { threadsLoader } from './features/threads/threadsLoader.js';
import { traceLoader } from './features/traces/traceLoader.js';
import { loginUrl } from './lib/signOut.js';

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
                  loader: callsLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/calls/CallsPage.js')).CallsPage }),
                },
                {
                  path: 'traces/:traceId',
                  loader: traceLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/traces/TracePage.js')).TracePage }),
                },
                {
                  path: 'threads',
                  loader: threadsLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/threads/ThreadsPage.js')).ThreadsPage }),
                },
                {
                  path: 'threads/:threadId',
                  loader: threadLoader(queryClient),
                  shouldRevalidate: threadShouldRevalidate,
                  lazy: async () => ({ Component: (await import('./features/threads/ThreadPage.js')).ThreadPage }),
                },
                {
                  path: 'evaluations',
                  loader: evaluationsLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/evaluations/EvaluationsPage.js')).EvaluationsPage }),
                },
                {
                  path: 'evaluations/runs/:runId',
                  loader: runLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/evaluations/RunPage.js')).RunPage }),
                },
                {
                  path: 'evaluations/compare',
                  loader: compareLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/evaluations/ComparePage.js')).ComparePage }),
                },
                {
                  path: 'dashboards',
                  loader: dashboardLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/dashboards/DashboardPage.js')).DashboardPage }),
                },
                // A call ref (`weave:///…/call/<id>`) opens its trace with the call selected.
                { path: 'calls/:callId', loader: callRefLoader(queryClient) },
                // The links the Weave SDKs print with WANDB_BASE_URL pointing here: a call
                // (`<base>/<entity>/<project>/r/call/<id>`) and the project (`.../weave`).
                { path: 'r/call/:callId', loader: callRefLoader(queryClient) },
                { path: 'weave', loader: ({ params }) => redirect(`/${params.entity}/${params.project}/calls`) },
                {
                  path: 'objects',
                  loader: objectsLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/objects/ObjectsPage.js')).ObjectsPage }),
                },
                {
                  path: 'objects/:objectId',
                  loader: objectLoader(queryClient),
                  shouldRevalidate: objectShouldRevalidate,
                  lazy: async () => ({ Component: (await import('./features/objects/ObjectPage.js')).ObjectPage }),
                },
                {
                  path: 'tables/:digest',
                  loader: tableLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/objects/TablePage.js')).TablePage }),
                },
                {
                  path: 'settings',
                  loader: settingsLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/settings/SettingsPage.js')).SettingsPage }),
                },
                {
                  path: 'annotation',
                  loader: queuesLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/annotation/QueuesPage.js')).QueuesPage }),
                },
                {
                  path: 'annotation/:queueId',
                  loader: queueLoader(queryClient),
                  lazy: async () => ({ Component: (await import('./features/annotation/QueuePage.js')).QueuePage }),
                },
                {
                  path: 'annotation/:queueId/review',
                  loader: reviewLoader(queryClient),
                  shouldRevalidate: reviewShouldRevalidate,
                  lazy: async () => ({ Component: (await import('./features/annotation/ReviewPage.js')).ReviewPage }),
                },
                ...comingSoonPages.map((page) => ({ path: page.path, element: <ComingSoon page={page} /> })),
              ],
            },
            {
              path: 'settings',
              loader: settingsLoader(queryClient),
              lazy: async () => ({ Component: (await import('./features/settings/SettingsPage.js')).SettingsPage }),
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}
