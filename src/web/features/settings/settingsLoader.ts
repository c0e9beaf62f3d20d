/** The settings route's loader: starts the page's queries with its code download. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { providersQueryOptions } from '../../entities/models/modelQueries.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { managesUsers } from '../../lib/permissions.js';
import { sessionsQueryOptions } from './sessionQueries.js';
import { apiKeysQueryOptions, pricesQueryOptions, usersQueryOptions } from './settingsQueries.js';

/** Prefetches prices (in a project), the user's keys and sessions, and the users for admins and entity admins. */
export function settingsLoader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    if (params.entity && params.project) {
      void queryClient.prefetchQuery(pricesQueryOptions(`${params.entity}/${params.project}`));
      void queryClient.prefetchQuery(providersQueryOptions(`${params.entity}/${params.project}`));
    }
    void queryClient.prefetchQuery(apiKeysQueryOptions());
    void queryClient.prefetchQuery(sessionsQueryOptions());
    const user = await queryClient.ensureQueryData(whoamiQueryOptions());
    if (managesUsers(user)) void queryClient.prefetchQuery(usersQueryOptions());
    return null;
  };
}
