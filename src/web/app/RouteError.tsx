/**
 * A route's error page (routing.tsx): unknown pages, a server that is down, and failed requests
 * each get their own words. Retry drops the failed queries and runs the route's loader again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { HttpError } from '../../client/index.js';
import { ErrorState } from '../components/ui/ErrorState.js';
import { dropEarlyPaint } from '../lib/earlyPaint.js';
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

/** A code-split module that could not be fetched (Chromium, Firefox and Safari word it differently). */
const isChunkLoadError = (error: unknown): boolean =>
  error instanceof TypeError && /dynamically imported module|module script failed|error loading dynamically imported/i.test(error.message);

/** A loader's `throw new Response(null, { status })`. */
const isResponse = (error: unknown): error is Response => error instanceof Response;

/** Error page for a route; `onRetry` renders the route again (its loader reruns). */
export function RouteError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  // The error shows, not a trace page painted before the app's code (lib/earlyPaint.ts).
  useLayoutEffect(dropEarlyPaint, []);
  // An unknown id is not something Retry can fix: say what is missing and offer a way back.
  if ((isResponse(error) || error instanceof HttpError) && error.status === 404) {
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
    // The browser keeps a failed code chunk's import failed for the page's life: only a reload
    // fetches it again (and the newest build with it).
    if (isChunkLoadError(error)) return window.location.reload();
    queryClient.removeQueries({ predicate: (q) => q.state.status === 'error' });
    onRetry();
  };
  return (
    <div className="page">
      <ErrorState error={isResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error} onRetry={retry} />
    </div>
  );
}
