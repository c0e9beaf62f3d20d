/**
 * The route `errorElement`: unknown pages, a server that is down, and failed requests each get
 * their own words. Retry drops the failed queries and runs the route's loaders again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { isRouteErrorResponse, useRevalidator, useRouteError } from 'react-router-dom';
import { ErrorState } from '../components/ui/ErrorState.js';
import { NotFound } from './NotFound.js';

/** Error page for a route. */
export function RouteError() {
  const error = useRouteError();
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  const retry = () => {
    queryClient.removeQueries({ predicate: (q) => q.state.status === 'error' });
    void revalidator.revalidate();
  };
  return (
    <div className="page">
      <ErrorState error={isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error} onRetry={retry} />
    </div>
  );
}
