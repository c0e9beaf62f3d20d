/** Row ↔ domain conversion for the ClickHouse calls table (Int64 columns arrive as strings). */
import { opDisplayName } from '../../core/opNames.js';
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import type { CallEndWrite, CallRecord, CallStartWrite } from '../Store.js';
import { numOrNull } from './ClickHouseDatabase.js';
import { CALL_COLUMNS } from '../query/callsPlan.js';

/** The call columns a read returns: the neutral list (CallSchema order) and the OTel dump. */
export const CALL_READ_COLUMNS = [...CALL_COLUMNS, 'otel_dump'] as const;

export type CallRow = Partial<Record<(typeof CALL_READ_COLUMNS)[number], string | null>> & {
  id: string;
  project_id: string;
  storage_size_bytes?: string | number | null;
  total_storage_size_bytes?: string | number | null;
};

const parse = (text: string | null | undefined): unknown => (text == null ? null : JSON.parse(text));

/** A stored row in wire form; calls ingested from OpenTelemetry show their span as `attributes.otel_span`. */
export function callFromRow(row: CallRow): CallRecord {
  const attributes = (parse(row.attributes) as Record<string, unknown>) ?? {};
  const startedAt = numOrNull(row.started_at);
  const call: CallRecord = {
    id: row.id,
    project_id: row.project_id,
    op_name: row.op_name ?? '',
    display_name: row.display_name || null,
    trace_id: row.trace_id ?? '',
    parent_id: row.parent_id ?? null,
    thread_id: row.thread_id ?? null,
    turn_id: row.turn_id ?? null,
    started_at: startedAt == null ? '' : formatMicros(startedAt),
    ended_at: formatMicrosOrNull(numOrNull(row.ended_at)),
    attributes: row.otel_dump ? { ...attributes, otel_span: JSON.parse(row.otel_dump) } : attributes,
    inputs: (parse(row.inputs) as Record<string, unknown>) ?? {},
    output: parse(row.output),
    exception: row.exception ?? null,
    summary: (parse(row.summary) as Record<string, unknown>) ?? {},
    wb_user_id: row.wb_user_id ?? null,
    wb_run_id: row.wb_run_id ?? null,
    wb_run_step: numOrNull(row.wb_run_step),
    wb_run_step_end: numOrNull(row.wb_run_step_end),
    deleted_at: formatMicrosOrNull(numOrNull(row.deleted_at)),
  };
  if (row.storage_size_bytes !== undefined) call.storage_size_bytes = numOrNull(row.storage_size_bytes);
  if (row.total_storage_size_bytes !== undefined) call.total_storage_size_bytes = numOrNull(row.total_storage_size_bytes);
  return call;
}

const refs = (list: string[]): string | null => (list.length ? JSON.stringify(list) : null);

/** The start part's columns; `part_ts` keeps a time near the call's for pruning. */
export const startColumns = (w: CallStartWrite) => ({
  trace_id: w.traceId,
  parent_id: w.parentId,
  thread_id: w.threadId,
  turn_id: w.turnId,
  op_name: w.opName,
  op_base_name: opDisplayName(w.opName),
  display_name: w.displayName,
  started_at: w.startedAt,
  attributes: w.attributesJson,
  inputs: w.inputsJson,
  otel_dump: w.otelDumpJson,
  input_refs: refs(w.inputRefs),
  wb_user_id: w.wbUserId,
  wb_run_id: w.wbRunId,
  wb_run_step: w.wbRunStep,
  part_ts: w.startedAt,
});

export const endColumns = (w: CallEndWrite) => ({
  ended_at: w.endedAt,
  exception: w.exception,
  output: w.outputJson,
  summary: w.summaryJson,
  output_refs: refs(w.outputRefs),
  wb_run_step_end: w.wbRunStepEnd,
  part_ts: w.endedAt,
});
