/**
 * Vite plugin: serves src/client/routeTable.ts to the browser as a literal computed at build
 * time from the endpoint table, so the client calls the API without the contract's zod
 * schemas (about 74 KB gzipped of the dashboard's initial JavaScript before).
 */
import type { Plugin } from 'vite';
import { routes } from './routeTable.js';

export function contractRoutes(): Plugin {
  return {
    name: 'weft-contract-routes',
    enforce: 'pre',
    load(id) {
      if (!/[\\/]src[\\/]client[\\/]routeTable\.ts$/.test(id.split('?')[0]!)) return null;
      return `// Generated from src/contract/endpoints.ts by routeTablePlugin.ts.\nexport const routes = ${JSON.stringify(routes)};\n`;
    },
  };
}
