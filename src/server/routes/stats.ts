/** Call statistics and LLM usage endpoints: thin maps to domain/calls/callStats.ts and domain/usageRollup.ts. */
import { callStats } from '../domain/calls/callStats.js';
import { callsUsage, traceUsage } from '../domain/stats/usageRollup.js';
import { defineRoutes } from '../http/defineRoutes.js';

export const statsRoutes = defineRoutes({
  callStats: {
    runs: 'read',
    handler: (req, { store, clock }) => callStats(store, req, { now: clock.nowMicros() }),
  },
  callsUsage: {
    runs: 'read',
    handler: (req, { store }) => callsUsage(store, req),
  },
  traceUsage: {
    runs: 'read',
    handler: (req, { store }) => traceUsage(store, req),
  },
});
