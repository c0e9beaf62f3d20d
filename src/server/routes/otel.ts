/** OpenTelemetry ingest: OTLP/HTTP trace exports become calls (domain/otel/exportTraces.ts). */
import { exportTraces } from '../domain/otel/exportTraces.js';
import { defineRoutes } from '../http/defineRoutes.js';

export const otelRoutes = defineRoutes({
  otelExport: {
    runs: 'write',
    // The projects are named inside the body (or a header), so exportTraces checks access.
    projects: () => [],
    handler: (_req, { store, user, body, request, limits }) =>
      exportTraces({
        store,
        user,
        body: body ?? new Uint8Array(),
        contentType: request.headers.get('content-type'),
        headerProjectId: request.headers.get('project_id'),
        maxJsonDepth: limits.maxJsonDepth,
      }),
  },
});
