/** Row ↔ domain conversion for the ClickHouse calls table (Int64 columns arrive as strings). */
import { opDisplayName } from '../../core/opNames.js';
import type { CallEndWrite, CallRecord, CallStartWrite } from '../Store.js';
import { numOrNull } from './ClickHouseDatabase.js';
import { CALL_COLUMNS } from '../query/callsPlan.js';
import { callFromRow as neutralCallFromRow } from '../query/callRow.js';

/** The call columns a read returns: the neutral list (CallSchema order) and the OTel dump. */
export const CALL_READ_COLUMNS = [...CALL_COLUMNS, 'otel_dump'] as const;

export type CallRow = Partial<Record<(typeof CALL_READ_COLUMNS)[number], string | null>> & {
  id: string;
  project_id: string;
  storage_size_bytes?: string | number | null;
  total_storage_size_bytes?: string | number | null;
};

/**
 * A stored row in wire form, by the neutral converter (query/callRow.ts, the one home of a
 * call's wire format) once the Int64 columns ClickHouse quotes are numbers again.
 */
export function callFromRow(row: CallRow): CallRecord {
  const { started_at, ended_at, deleted_at, wb_run_step, wb_run_step_end, storage_size_bytes, total_storage_size_bytes, ...text } = row;
  return neutralCallFromRow({
    ...text,
    started_at: numOrNull(started_at),
    ended_at: numOrNull(ended_at),
    deleted_at: numOrNull(deleted_at),
    wb_run_step: numOrNull(wb_run_step),
    wb_run_step_end: numOrNull(wb_run_step_end),
    ...(storage_size_bytes !== undefined ? { storage_size_bytes: numOrNull(storage_size_bytes) } : {}),
    ...(total_storage_size_bytes !== undefined ? { total_storage_size_bytes: numOrNull(total_storage_size_bytes) } : {}),
  });
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
