/**
 * The route `errorElement`: unknown pages, a server that is down, and failed requests each get
 * their own words. Retry drops the failed queries and runs the route's loaders again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { isRouteErrorResponse, useLocation, useRevalidator, useRouteError } from 'react-router-dom';
import { HttpError } from '../../client/index.js';
import { ErrorState } from '../components/ui/ErrorState.js';
import { NotFound } from './NotFound.js';

/** What a not-found path names, from its section: `/e/p/calls/<id>` → a call. */
const WHAT: Record<string, string> = {
  calls: 'Call',
  traces: 'Trace',
  threads: 'Thread',
  objects: 'Object',
  tables: 'Table',
  annotation: 'Annotation queue',
  evaluations: 'Evaluation run',
};

/** Error page for a route. */
export function RouteError() {
  const error = useRouteError();
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  const { pathname } = useLocation();
  // An unknown id is not something Retry can fix: say what is missing and offer a way back.
  if ((isRouteErrorResponse(error) || error instanceof HttpError) && error.status === 404) {
    const parts = pathname.split('/').filter(Boolean);
    const what = parts.length > 3 ? WHAT[parts[2]!] : undefined;
    if (what)
      return (
        <NotFound
          title={`${what} not found`}
          detail={`This project has no ${what.toLowerCase()} “${decodeURIComponent(parts.at(-1)!)}”.`}
        />
      );
    return <NotFound />;
  }

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
