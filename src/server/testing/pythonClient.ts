/**
 * Requests as the Python SDK's RemoteHTTPTraceServer sends them, for compatibility tests: the
 * body is `Req.model_dump_json(by_alias=True)` — every optional field present, as `null` or its
 * default — posted as raw bytes with no Content-Type (httpx `data=`), under Basic `api:<key>`.
 *
 * The builders below list every field of the reference's pydantic request models
 * (weave/trace_server/trace_server_interface.py, newest version) with its default, so a test
 * overrides only what it cares about and the rest goes over the wire the way Python writes it.
 *
 * @example
 * const res = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, include_usernames: true }));
 */
import type { TestServer } from './testServer.js';

/**
 * A parsed answer of any shape: tests reach into it freely, and a wrong guess fails the test.
 */

export type PyJson = any;

export interface PyResponse {
  status: number;
  /** Parsed JSON, or for JSON-lines answers the list of parsed lines; null when not JSON. */
  body: PyJson;
  contentType: string | null;
}

/** POSTs `body` (an object, serialized as Python would: compact, no Content-Type). */
export async function pyPost(t: TestServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<PyResponse> {
  // A Uint8Array body makes fetch send no Content-Type at all, as httpx does for `data=bytes`.
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const res = await t.fetch(path, { method: 'POST', body: bytes, headers: { authorization: t.alice.authHeader, ...headers } });
  const text = await res.text();
  const contentType = res.headers.get('content-type');
  return { status: res.status, body: parseBody(text, contentType), contentType };
}

/** JSON, or JSON lines for the streaming answers; null when the text is neither. */
function parseBody(text: string, contentType: string | null): unknown {
  try {
    const lines = contentType?.includes('ndjson') || contentType?.includes('jsonl');
    return lines
      ? text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l))
      : JSON.parse(text);
  } catch {
    return null;
  }
}

/** `CallsQueryReq` with every field at its default. */
export const pyCallsQueryReq = (over: Record<string, unknown>) => ({
  project_id: null,
  filter: null,
  limit: null,
  offset: null,
  latest_only: false,
  sort_by: null,
  query: null,
  include_costs: false,
  include_feedback: false,
  include_storage_size: false,
  include_total_storage_size: false,
  include_usernames: false,
  columns: null,
  expand_columns: null,
  return_expanded_column_values: true,
  ...over,
});

/** `StartedCallSchemaForInsert` with every field present. */
export const pyStartedCall = (over: Record<string, unknown>) => ({
  project_id: null,
  id: null,
  op_name: 'op',
  display_name: null,
  trace_id: null,
  parent_id: null,
  thread_id: null,
  turn_id: null,
  started_at: '2026-01-01T00:00:00Z',
  attributes: {},
  inputs: {},
  otel_dump: null,
  wb_user_id: null,
  wb_run_id: null,
  wb_run_step: null,
  ...over,
});

/** `EndedCallSchemaForInsert` (newest: with trace_id, is_eval and started_at) with every field present. */
export const pyEndedCall = (over: Record<string, unknown>) => ({
  project_id: null,
  id: null,
  trace_id: null,
  is_eval: null,
  ended_at: '2026-01-01T00:00:01Z',
  started_at: null,
  exception: null,
  output: null,
  summary: {},
  wb_run_step_end: null,
  ...over,
});

/** `CompletedCallSchemaForInsert` with every field present. */
export const pyCompletedCall = (over: Record<string, unknown>) => ({
  project_id: null,
  id: null,
  trace_id: null,
  op_name: 'op',
  started_at: '2026-01-01T00:00:00Z',
  ended_at: '2026-01-01T00:00:01Z',
  display_name: null,
  parent_id: null,
  thread_id: null,
  turn_id: null,
  attributes: {},
  inputs: {},
  output: null,
  summary: {},
  otel_dump: null,
  exception: null,
  wb_user_id: null,
  wb_run_id: null,
  wb_run_step: null,
  wb_run_step_end: null,
  ...over,
});

/** `ObjSchemaForInsert` inside an `ObjCreateReq`, every field present. */
export const pyObjCreateReq = (over: Record<string, unknown>) => ({
  obj: { project_id: null, object_id: null, val: null, builtin_object_class: null, expected_digest: null, wb_user_id: null, ...over },
});

/** `FeedbackQueryReq` with every field at its default. */
export const pyFeedbackQueryReq = (over: Record<string, unknown>) => ({
  project_id: null,
  fields: null,
  query: null,
  sort_by: null,
  limit: null,
  offset: null,
  ...over,
});

/** `CostCreateInput` with every field at its default. */
export const pyCostCreateInput = (over: Record<string, unknown>) => ({
  prompt_token_cost: 0,
  completion_token_cost: 0,
  cache_read_input_token_cost: 0,
  cache_creation_input_token_cost: 0,
  prompt_token_cost_unit: 'USD',
  completion_token_cost_unit: 'USD',
  effective_date: null,
  provider_id: null,
  ...over,
});
