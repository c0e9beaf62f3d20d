/** Thread endpoints. */
import { countThreads, queryThreads } from '../domain/threads/threadsQuery.js';
import { defineRoutes } from '../http/defineRoutes.js';

export const threadRoutes = defineRoutes({
  threadsStreamQuery: {
    runs: 'read',
    handler: (req, { store }) => queryThreads(store, req),
  },
  threadsQueryStats: {
    runs: 'write',
    handler: (req, { store }) => countThreads(store, req),
  },
});
