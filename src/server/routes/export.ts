/**
 * POST /weft/calls/export: every call matching a call query, as a file download.
 *
 * - `jsonl`: one CallSchema (with `summary.weave`) per line, exactly what /calls/stream_query
 *   yields.
 * - `csv`: RFC 4180 with CRLF line ends and a header row. The default columns flatten what a
 *   spreadsheet user wants first (status, latency, total tokens) and keep inputs, output,
 *   attributes and summary as JSON text, one cell each; `columns` picks others, including
 *   dotted paths such as `summary.weave.status` or `inputs.model`. Cells a spreadsheet would
 *   run as a formula are neutralised (core/csv.ts).
 *
 * There is no row cap (a `limit` in the request still applies) and nothing is buffered: rows go
 * out as the store reads them, and `pull` lets a slow download slow the query down instead of
 * filling memory. The first row is read before the answer starts, so a bad query still gets
 * a proper error status rather than a broken 200. Project access is checked by the route
 * layer from `project_id`.
 */
import type { CallSchema, CallsExportReq } from '../../contract/calls.js';
import { csvRow } from '../core/csv.js';
import { queryCalls } from '../domain/calls/callsQuery.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor } from '../audit/auditTrail.js';
import type { Store } from '../store/Store.js';

export const exportRoutes = defineRoutes({
  callsExport: {
    runs: 'read',
    handler: async (req, ctx) => {
      const answer = await exportCalls(ctx.store, req);
      // Recorded once the query is known good (its first row read), before the rows stream out.
      await recordFor(ctx, {
        action: 'data.exported',
        target: req.project_id,
        entity: entityOf(req.project_id),
        projectId: req.project_id,
        details: { kind: 'calls', format: req.format, ...(req.limit != null ? { limit: req.limit } : {}) },
      });
      return answer;
    },
  },
});

const CHUNK_CHARS = 64 * 1024;

/** CSV columns when the request names none. */
export const DEFAULT_CSV_COLUMNS = [
  'id',
  'trace_id',
  'parent_id',
  'op_name',
  'display_name',
  'started_at',
  'ended_at',
  'status',
  'latency_ms',
  'exception',
  'total_tokens',
  'inputs',
  'output',
  'attributes',
  'summary',
];

/** Columns computed from `summary` rather than stored under their own name. */
const DERIVED: Record<string, (call: CallSchema) => unknown> = {
  status: (call) => weaveSummary(call).status,
  latency_ms: (call) => weaveSummary(call).latency_ms,
  // The server's own total (domain/calls/calls.ts withWeaveSummary, core/usage.ts); null without usage.
  total_tokens: (call) => weaveSummary(call).total_tokens ?? null,
};

async function exportCalls(store: Store, req: CallsExportReq): Promise<Response> {
  const { format, ...query } = req;
  const csvColumns = format === 'csv' ? (query.columns?.length ? query.columns : DEFAULT_CSV_COLUMNS) : null;
  // The store loads top-level columns only; derived CSV columns need the summary loaded.
  const storeColumns =
    csvColumns && query.columns?.length ? csvColumns.map((c) => (Object.hasOwn(DERIVED, c) ? 'summary' : c)) : query.columns;
  const rows = await primed(queryCalls(store, { ...query, columns: storeColumns }));
  const lines = csvColumns ? csvLines(rows, csvColumns) : jsonLines(rows);
  const project = (req.project_id.split('/')[1] ?? 'calls').replace(/[^\w.-]/g, '_');
  return new Response(textStream(lines), {
    headers: {
      'content-type': csvColumns ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
      'content-disposition': `attachment; filename="${project}-calls.${format}"`,
      'x-content-type-options': 'nosniff',
    },
  });
}

async function* jsonLines(rows: AsyncIterable<CallSchema>): AsyncIterable<string> {
  for await (const call of rows) yield `${JSON.stringify(call)}\n`;
}

async function* csvLines(rows: AsyncIterable<CallSchema>, columns: string[]): AsyncIterable<string> {
  yield csvRow(columns);
  for await (const call of rows) yield csvRow(columns.map((c) => columnValue(call, c)));
}

function columnValue(call: CallSchema, column: string): unknown {
  if (Object.hasOwn(DERIVED, column)) return DERIVED[column]!(call);
  let value: unknown = call;
  for (const key of column.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function weaveSummary(call: CallSchema): Record<string, unknown> {
  return (call.summary?.weave as Record<string, unknown> | undefined) ?? {};
}

/** Reads the first row now, so query errors surface before the response starts. */
export async function primed<T>(rows: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  return (async function* () {
    try {
      for (let next = first; !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  })();
}

/** A byte stream of text pieces, gathered into ~64 KiB chunks and read only on demand. */
export function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = '';
      try {
        while (chunk.length < CHUNK_CHARS) {
          const next = await iterator.next();
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
        }
        controller.enqueue(encoder.encode(chunk));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
