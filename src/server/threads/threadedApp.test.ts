/**
 * Where a threaded server serves each endpoint, as the routes declare it (requestThreads.test.ts
 * checks it over HTTP). The main thread keeps only what needs its services (the providers, the
 * job runner) or must never wait (`/health`): a read served there holds every other request's
 * hand-off for as long as it runs.
 */
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointDef, type EndpointName } from '../../contract/endpoints.js';
import { allRoutes } from '../routes/allRoutes.js';
import type { RunsOn } from '../http/defineRoutes.js';

const runs = Object.entries(allRoutes).map(([name, route]) => [name as EndpointName, route.runs] as [EndpointName, RunsOn]);
const on = (where: RunsOn) => runs.filter(([, r]) => r === where).map(([name]) => name);

describe('threaded endpoint placement', () => {
  it('never serves a GET on a write thread', () => {
    expect(runs.filter(([name, r]) => endpoints[name].method === 'GET' && r === 'write')).toEqual([]);
  });

  it('keeps /health and the model-backed jobs on the main thread, and nothing that queries the store in bulk', () => {
    expect(on('main').sort()).toEqual(
      expect.arrayContaining(['health', 'completionsCreate', 'evaluateModel', 'evaluationRescore', 'callsScore']),
    );
    for (const name of ['callsStreamQuery', 'threadsStreamQuery', 'evalResultsQuery', 'callsExport', 'objsQuery'] as const)
      expect(allRoutes[name].runs).toBe('read');
  });

  it('takes only JSON-answering writes on the main thread when their body is small', () => {
    // A stream would be read past the read budget's check.
    for (const name of on('main-when-small')) {
      const def: EndpointDef = endpoints[name];
      expect(def.method).toBe('POST');
      expect(Boolean(def.stream || def.raw)).toBe(false);
    }
    expect(on('main-when-small').sort()).toEqual(['predictionCreate', 'predictionFinish', 'scoreCreate']);
  });
});
