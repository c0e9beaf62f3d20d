/** "Add to dataset": rows from calls, threads or queue items appended as a new version (docs/datasets.md "Add to dataset"). */
import { defineRoutes } from '../http/defineRoutes.js';
import { addFromTraces } from '../domain/datasets/addFromTraces.js';

export const datasetAddRoutes = defineRoutes({
  datasetAddFromTraces: {
    runs: 'write',
    // The next version builds on the latest one: it must see a version added a moment ago on any replica.
    readYourWrites: true,
    handler: async (req, { store, user, clock }) =>
      addFromTraces(store, { projectId: req.project_id, userId: user.username, now: clock.nowMicros() }, req),
  },
});
