/** Cost (LLM price) endpoints: thin maps from endpoint name to domain and store calls. */
import { toPriceRecords } from '../domain/stats/costs.js';
import { listPrices } from '../domain/stats/priceList.js';
import { idsFromPurgeQuery } from '../domain/calls/purgeQuery.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { toProjectTableQuery } from '../store/ProjectTableQuery.js';

const PURGE_MESSAGE = 'Can only purge costs by specifying one or more cost ids';

export const costRoutes = defineRoutes({
  costCreate: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const rows = toPriceRecords(req, user.username, clock.nowMicros());
      await store.costs.createPrices(rows);
      return { ids: rows.map((r) => [r.id, r.llmId] as [string, string]) };
    },
  },

  costQuery: {
    runs: 'read',
    // The reference scopes a query given with `query` to every project's prices; here a
    // project only ever sees its own.
    handler: async (req, { store }) => ({ results: await store.costs.queryPrices(toProjectTableQuery(req)) }),
  },

  pricesList: {
    runs: 'read',
    handler: async (req, { store, clock }) => ({ prices: await listPrices(store, req.project_id, clock.nowMicros()) }),
  },

  costPurge: {
    runs: 'write',
    handler: async (req, { store }) => {
      const ids = idsFromPurgeQuery(req.query, { allowIn: true, message: PURGE_MESSAGE });
      await store.costs.purgePrices({ projectId: req.project_id, ids });
      return {};
    },
  },
});
