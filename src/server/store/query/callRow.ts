/**
 * How a stored call row becomes a CallRecord, for every backend: the row holds the columns of
 * callsPlan.ts `CALL_COLUMNS` under those names (JSON columns as JSON text, times as epoch
 * microseconds), plus `otel_dump` when `attributes` is loaded and the storage sizes when asked
 * for. Columns a query did not load are absent.
 */
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import type { CallRecord } from '../CallsStore.js';

export interface CallRow {
  id: string;
  project_id: string;
  op_name?: string | null;
  display_name?: string | null;
  trace_id?: string | null;
  parent_id?: string | null;
  thread_id?: string | null;
  turn_id?: string | null;
  started_at?: number | null;
  ended_at?: number | null;
  attributes?: string | null;
  inputs?: string | null;
  output?: string | null;
  exception?: string | null;
  summary?: string | null;
  wb_user_id?: string | null;
  wb_run_id?: string | null;
  wb_run_step?: number | null;
  wb_run_step_end?: number | null;
  deleted_at?: number | null;
  otel_dump?: string | null;
  storage_size_bytes?: number | null;
  total_storage_size_bytes?: number | null;
}

const parse = (text: string | null | undefined): unknown => (text == null ? null : JSON.parse(text));

/** Calls ingested from OpenTelemetry show the original span as `attributes.otel_span`, as the reference does. */
function withOtelSpan(attributes: Record<string, unknown>, otelDump: string | null | undefined): Record<string, unknown> {
  return otelDump ? { ...attributes, otel_span: JSON.parse(otelDump) } : attributes;
}

/** A stored row in wire form. Unloaded required fields come back as `""` / `{}`. */
export function callFromRow(row: CallRow): CallRecord {
  const call: CallRecord = {
    id: row.id,
    project_id: row.project_id,
    op_name: row.op_name ?? '',
    display_name: row.display_name || null,
    trace_id: row.trace_id ?? '',
    parent_id: row.parent_id ?? null,
    thread_id: row.thread_id ?? null,
    turn_id: row.turn_id ?? null,
    started_at: row.started_at == null ? '' : formatMicros(row.started_at),
    ended_at: formatMicrosOrNull(row.ended_at),
    attributes: withOtelSpan((parse(row.attributes) as Record<string, unknown>) ?? {}, row.otel_dump),
    inputs: (parse(row.inputs) as Record<string, unknown>) ?? {},
    output: parse(row.output),
    exception: row.exception ?? null,
    summary: (parse(row.summary) as Record<string, unknown>) ?? {},
    wb_user_id: row.wb_user_id ?? null,
    wb_run_id: row.wb_run_id ?? null,
    wb_run_step: row.wb_run_step ?? null,
    wb_run_step_end: row.wb_run_step_end ?? null,
    deleted_at: formatMicrosOrNull(row.deleted_at),
  };
  if (row.storage_size_bytes !== undefined) call.storage_size_bytes = row.storage_size_bytes;
  if (row.total_storage_size_bytes !== undefined) call.total_storage_size_bytes = row.total_storage_size_bytes;
  return call;
}
