/** Serves the built dashboard (dist/) at `/`. Filled in by the dashboard work. */
import type { Hono } from 'hono';

export function mountDashboard(_app: Hono): void {}
