/** The app's react-query client: calm defaults, no retries on answers that will not change. */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { HttpError } from '../../client/index.js';

/** True for errors a retry cannot fix (bad request, forbidden, not found, ...). */
export function isClientError(error: unknown): boolean {
  return error instanceof HttpError && error.status >= 400 && error.status < 500;
}

/** Builds the client; `onUnauthorized` runs when the server stops accepting our credentials. */
export function createQueryClient(onUnauthorized: () => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof HttpError && error.status === 401) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isClientError(error) && count < 2,
      },
    },
  });
}
