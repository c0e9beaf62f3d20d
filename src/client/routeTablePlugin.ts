/**
 * Vite plugin: serves src/client/routeTable.ts and routeRoles.ts to the browser as literals
 * computed at build time from the endpoint table, so the client calls the API, and the
 * dashboard checks permissions, without the contract's zod schemas (about 74 KB gzipped of the
 * dashboard's initial JavaScript before; ~50 KB of the trace page's code after it).
 */
import type { Plugin } from 'vite';
import { routeRoles } from './routeRoles.js';
import { routes } from './routeTable.js';

const GENERATED: [RegExp, string][] = [
  [/[\\/]src[\\/]client[\\/]routeTable\.ts$/, `export const routes = ${JSON.stringify(routes)};`],
  [/[\\/]src[\\/]client[\\/]routeRoles\.ts$/, `export const routeRoles = ${JSON.stringify(routeRoles)};`],
];

export function contractRoutes(): Plugin {
  return {
    name: 'weft-contract-routes',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0]!;
      const hit = GENERATED.find(([re]) => re.test(path));
      return hit ? `// Generated from src/contract/endpoints.ts by routeTablePlugin.ts.\n${hit[1]}\n` : null;
    },
  };
}
