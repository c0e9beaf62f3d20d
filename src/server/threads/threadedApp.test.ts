/**
 * Where a threaded server serves each endpoint (requestThreads.test.ts checks it over HTTP for
 * evaluation results). The main thread keeps only what needs its services (the providers, the
 * job runner) or must never wait (`/health`): a read served there holds /health and every other
 * request's hand-off for as long as it runs. eval_results/query once sat there because its route
 * table also held the model-backed jobs (issue 18).
 */
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointDef } from '../../contract/endpoints.js';
import { READ_ENDPOINTS, READ_POSTS } from './readEndpoints.js';
import { ON_MAIN, ON_MAIN_WHEN_SMALL } from './threadedApp.js';

describe('threaded endpoint placement', () => {
  it('serves no read that carries its query in a body on the main thread', () => {
    expect(READ_POSTS.filter((name) => ON_MAIN.has(name))).toEqual([]);
  });

  it('keeps /health and the model-backed jobs on the main thread', () => {
    for (const name of ['health', 'completionsCreate', 'evaluateModel', 'evaluationRescore', 'callsScore'])
      expect(ON_MAIN.has(name)).toBe(true);
  });

  it('takes only JSON-answering writes on the main thread when their body is small', () => {
    // A read would skip its time budget; a stream would be read past the read budget's check.
    for (const name of ON_MAIN_WHEN_SMALL) {
      expect(READ_ENDPOINTS.has(name)).toBe(false);
      expect(ON_MAIN.has(name)).toBe(false);
      const def: EndpointDef = endpoints[name];
      expect(Boolean(def.stream || def.raw)).toBe(false);
    }
  });
});
