/**
 * The endpoint table without its validators: all a client needs to call an endpoint (method,
 * path, streamed or raw answer, body kind). Derived here from src/contract/endpoints.ts; for
 * the dashboard's build, vite.config.ts (the contractRoutes plugin, routeTablePlugin.ts)
 * replaces this module with the same table as a plain literal, so the browser never loads the
 * zod schemas. Nothing is maintained by hand.
 */
import { endpoints, type EndpointDef, type EndpointName } from '../contract/endpoints.js';

export interface RouteInfo {
  method: EndpointDef['method'];
  path: string;
  stream?: true;
  raw?: true;
  body?: 'binary' | 'multipart';
}

export const routes = Object.fromEntries(
  (Object.keys(endpoints) as EndpointName[]).map((name) => {
    const e: EndpointDef = endpoints[name];
    const route: RouteInfo = { method: e.method, path: e.path };
    if (e.stream) route.stream = true;
    if (e.raw) route.raw = true;
    if (e.body) route.body = e.body;
    return [name, route];
  }),
) as Record<EndpointName, RouteInfo>;
