/** The thread route's loader, outside the lazy page so the thread starts loading with the page's code. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router-dom';
import { threadQueryOptions, threadTurnsQueryOptions } from '../threadQueries.js';

/** Starts the thread's statistics and its first page of turns. */
export function threadLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const ids = { projectId: `${params.entity}/${params.project}`, threadId: params.threadId! };
    void queryClient.prefetchQuery(threadQueryOptions(ids));
    void queryClient.prefetchInfiniteQuery(threadTurnsQueryOptions(ids));
    return null;
  };
}

/** Selecting another turn only changes `?turn=`; that needs no loader run (the data is there). */
export function threadShouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;
}
