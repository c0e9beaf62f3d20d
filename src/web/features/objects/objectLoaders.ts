/**
 * Loaders of the objects routes, outside the lazily loaded pages so their data starts loading
 * with the pages' code; and the `/calls/:callId` loader that sends a call ref to its trace.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router-dom';
import { callQueryOptions } from '../../entities/calls/callQueries.js';
import { objectsListQueryOptions, objectVersionQueryOptions, objectVersionsQueryOptions } from './objectQueries.js';
import { readObjectView } from './objectViewState.js';
import { tableCountQueryOptions, tablePageQueryOptions } from './tables/tableQueries.js';

const projectOf = (params: LoaderFunctionArgs['params']) => `${params.entity}/${params.project}`;

/** Starts the objects list. */
export function objectsLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    void queryClient.prefetchQuery(objectsListQueryOptions(projectOf(params)));
    return null;
  };
}

/** Starts an object's versions and the version on show. */
export function objectLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const ids = { projectId: projectOf(params), objectId: params.objectId! };
    const { version } = readObjectView(new URL(request.url).searchParams);
    void queryClient.prefetchQuery(objectVersionsQueryOptions(ids));
    void queryClient.prefetchQuery(objectVersionQueryOptions({ ...ids, version: version ?? 'latest' }));
    return null;
  };
}

/** Only another object or version needs the loader again (tabs, rows and sorting do not). */
export function objectShouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  const moved = currentUrl.pathname !== nextUrl.pathname || currentUrl.searchParams.get('version') !== nextUrl.searchParams.get('version');
  return moved && defaultShouldRevalidate;
}

/** Starts a table's row count and first page. */
export function tableLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const ids = { projectId: projectOf(params), digest: params.digest! };
    const { sort } = readObjectView(new URL(request.url).searchParams);
    void queryClient.prefetchQuery(tableCountQueryOptions(ids));
    void queryClient.prefetchQuery(tablePageQueryOptions({ ...ids, sort, page: 0 }));
    return null;
  };
}

/** A call ref opens the call inside its trace; a call that does not exist is a 404. */
export function callRefLoader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const call = await queryClient.ensureQueryData(callQueryOptions({ projectId: projectOf(params), id: params.callId! }));
    if (!call) throw new Response(null, { status: 404, statusText: 'Not Found' });
    return redirect(`/${params.entity}/${params.project}/traces/${encodeURIComponent(call.trace_id)}?call=${encodeURIComponent(call.id)}`);
  };
}
