/** Loaders of the datasets pages: their first queries start with the pages' code. */
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { datasetsQueryOptions, datasetVersionsQueryOptions } from './datasetQueries.js';

const projectOf = (params: LoaderFunctionArgs['params']) => `${params.entity}/${params.project}`;

/** Starts the datasets list. */
export function datasetsLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    void queryClient.prefetchQuery(datasetsQueryOptions(projectOf(params)));
    return null;
  };
}

/** Starts a dataset's versions. */
export function datasetLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    void queryClient.prefetchQuery(datasetVersionsQueryOptions(projectOf(params), params.objectId!));
    return null;
  };
}
