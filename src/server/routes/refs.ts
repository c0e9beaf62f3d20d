/** Ref endpoints: every project a ref names is access-checked before anything is read. */
import { readRefs, refProjects } from '../domain/objects/refsRead.js';
import { defineRoutes } from '../http/defineRoutes.js';

export const refRoutes = defineRoutes({
  refsReadBatch: {
    runs: 'read',
    projects: (input) => refProjects(input.refs),
    handler: async (req, { store, limits }) => ({ vals: await readRefs(store, req.refs, limits) }),
  },
});
