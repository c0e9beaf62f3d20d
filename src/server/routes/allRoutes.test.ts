/**
 * Mounting is total: the app's route table must hold a handler for every endpoint of the
 * contract (a type error otherwise, checked by `tsc` on this file), no endpoint may have two,
 * and over HTTP every endpoint reaches a handler instead of the app's "No endpoint" answer.
 */
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../contract/endpoints.js';
import { isTraceServerEndpoint, TRACE_PREFIX, type TotalRouteTable } from '../http/defineRoutes.js';
import { useTestServer } from '../testing/serverSuite.js';
import { allRoutes, combineRoutes, SERVED_ELSEWHERE, type ServedElsewhere } from './allRoutes.js';
import { callRoutes } from './calls.js';
import { threadRoutes } from './threads.js';

// Type-level: the full table type-checks; one without `callStart`'s handler does not.
const _total: TotalRouteTable<ServedElsewhere> = allRoutes;
const { callStart: _dropped, ...withoutCallStart } = allRoutes;
// @ts-expect-error a forgotten handler is a compile error, not a silently missing route
const _missingOne: TotalRouteTable<ServedElsewhere> = withoutCallStart;

describe('the app route table', () => {
  it('has a handler for every endpoint not served elsewhere, and nothing else', () => {
    const expected = (Object.keys(endpoints) as EndpointName[]).filter((name) => !(SERVED_ELSEWHERE as readonly string[]).includes(name));
    expect(Object.keys(allRoutes).sort()).toEqual(expected.sort());
  });

  it('refuses two route groups that handle the same endpoint', () => {
    expect(() => combineRoutes([callRoutes, threadRoutes, { callStart: callRoutes.callStart }])).toThrow(
      'Endpoint callStart has a handler in two route groups',
    );
  });
});

describe('every endpoint over HTTP', () => {
  const t = useTestServer();

  it('reaches a handler (401, 422 or an answer), never the "No endpoint" fallback', async () => {
    const fallbacks: string[] = [];
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const path = endpoint.path.replace(/:(\w+)/g, 'x');
      const paths = isTraceServerEndpoint(endpoint) ? [path, TRACE_PREFIX + path] : [path];
      for (const p of paths) {
        // No credentials: the authenticated endpoints stop at 401, before doing anything.
        const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
        const res = await fetch(`${t.url}${p}`, {
          method: endpoint.method,
          headers: hasBody ? { 'content-type': 'application/json', origin: t.url } : { origin: t.url },
          body: hasBody ? '{}' : undefined,
        });
        const text = await res.text();
        if (text.includes('No endpoint ')) fallbacks.push(`${name}: ${endpoint.method} ${p} -> ${res.status}`);
      }
    }
    expect(fallbacks).toEqual([]);
  });
});
