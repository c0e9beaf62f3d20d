/**
 * OpenTelemetry ingest: any OTLP/HTTP trace exporter can send spans, which become calls.
 * See docs/api/core.md §3.9.
 *
 * The request body is an OTLP `ExportTraceServiceRequest`, protobuf
 * (`application/x-protobuf`) or JSON (`application/json`), optionally gzip/deflate encoded.
 * It is not described by a zod schema: the endpoint takes the raw bytes (`body: 'binary'`).
 * The project comes from the resource attributes `wandb.entity` + `wandb.project`, or the
 * `project_id: <entity>/<project>` header.
 */
import { z } from 'zod';

// POST /otel/v1/traces
/** Nothing besides the body: the query string carries no fields. */
export const OtelExportReq = z.object({});

/** OTLP `ExportTraceServiceResponse` in JSON, as the Weave server answers. */
export const OtelExportRes = z.object({
  partial_success: z
    .object({
      rejected_spans: z.number().int(),
      error_message: z.string(),
    })
    .nullable()
    .describe('null when every span was stored'),
});
export type OtelExportRes = z.infer<typeof OtelExportRes>;
