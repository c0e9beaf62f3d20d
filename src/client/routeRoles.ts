/**
 * What each endpoint asks of its caller (its row's `role`, or `public`), without the validators:
 * the dashboard's permission checks read it (src/web/lib/permissions.ts). Derived here from
 * src/contract/endpoints.ts; for the dashboard's build the contractRoutes plugin
 * (routeTablePlugin.ts) replaces this module with the same table as a literal, as it does
 * routeTable.ts, so a page that checks a permission does not load zod and every schema.
 */
import { endpoints, type EndpointDef, type EndpointName } from '../contract/endpoints.js';

/** The fields of a row that say who may call it; `method` only for a row without a role. */
export type RouteAccess = Partial<Pick<EndpointDef, 'method' | 'public' | 'role'>>;

export const routeRoles = Object.fromEntries(
  (Object.keys(endpoints) as EndpointName[]).map((name) => {
    const e: EndpointDef = endpoints[name];
    const access: RouteAccess = e.public ? { public: true } : e.role ? { role: e.role } : { method: e.method };
    return [name, access];
  }),
) as Record<EndpointName, RouteAccess>;
