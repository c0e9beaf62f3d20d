/**
 * Call logic that does not touch storage: turning wire starts/ends into store writes, and
 * the derived `summary.weave` block every read carries (docs/api/core.md §2 "SummaryMap").
 */
import type { CompletedCall, EndedCall, StartedCall } from '../../../contract/calls.js';
import { BadRequestError } from '../../errors.js';
import type { CallEndWrite, CallRecord, CallStartWrite } from '../../store/Store.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import { opDisplayName } from '../../core/opNames.js';
import { usageTotalsOf } from '../../core/usage.js';

/** Every `weave:///` ref string found anywhere inside a value (deduplicated, in order). */
export function findRefs(value: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 64) return out;
  if (typeof value === 'string') {
    if (value.startsWith('weave:///')) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) findRefs(v, out, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) findRefs(v, out, depth + 1);
  }
  return out;
}

/** Refs in a value whose JSON text is at hand: the text test skips the walk for most calls. */
const refsIn = (value: unknown, json: string): string[] => (json.includes('weave:///') ? [...findRefs(value)] : []);

function micros(text: string, field: string): number {
  const us = parseIsoToMicros(text);
  if (us === null) throw new BadRequestError(`${field} is not a valid ISO 8601 datetime: ${text}`);
  return us;
}

/** A start as the store keeps it: ids generated when absent, the caller as `wb_user_id`. */
export function toStartWrite(start: StartedCall, userId: string): CallStartWrite {
  const inputs = start.inputs ?? {};
  const inputsJson = JSON.stringify(inputs);
  return {
    kind: 'start',
    projectId: start.project_id,
    id: start.id ?? uuidv7(),
    traceId: start.trace_id ?? uuidv7(),
    parentId: start.parent_id ?? null,
    threadId: start.thread_id ?? null,
    turnId: start.turn_id ?? null,
    opName: start.op_name,
    displayName: start.display_name ?? null,
    startedAt: micros(start.started_at, 'started_at'),
    attributesJson: JSON.stringify(start.attributes ?? {}),
    inputsJson,
    otelDumpJson: start.otel_dump ? JSON.stringify(start.otel_dump) : null,
    inputRefs: refsIn(inputs, inputsJson),
    wbUserId: userId,
    wbRunId: start.wb_run_id ?? null,
    wbRunStep: start.wb_run_step ?? null,
  };
}

export function toEndWrite(end: EndedCall): CallEndWrite {
  const outputJson = end.output === undefined || end.output === null ? null : JSON.stringify(end.output);
  return {
    kind: 'end',
    projectId: end.project_id,
    id: end.id,
    endedAt: micros(end.ended_at, 'ended_at'),
    exception: end.exception ?? null,
    outputJson,
    summaryJson: JSON.stringify(end.summary ?? {}),
    outputRefs: outputJson ? refsIn(end.output, outputJson) : [],
    wbRunStepEnd: end.wb_run_step_end ?? null,
  };
}

/**
 * A finished call sent whole ("calls complete" mode) as the start and end writes it amounts to,
 * so it is stored, rolled up and read exactly like a call sent in two parts.
 */
export function toCompleteWrites(call: CompletedCall, userId: string): [CallStartWrite, CallEndWrite] {
  const start = toStartWrite(call, userId);
  const end = toEndWrite({
    project_id: call.project_id,
    id: call.id,
    ended_at: call.ended_at,
    exception: call.exception,
    output: call.output,
    summary: call.summary,
    wb_run_step_end: call.wb_run_step_end,
  });
  return [start, end];
}

/**
 * Adds `summary.weave` the way the reference does on every read: status, latency_ms (whole
 * ms, absent while running) and trace_name (or `display_name` when one is set). Other keys
 * already stored under `weave` are kept.
 *
 * Weft adds the call's token totals (`input_tokens`, `output_tokens`, `total_tokens`,
 * `requests`, and per model `model_tokens`) under the one usage rule (core/usage.ts), when
 * `summary.usage` has at least one model: every surface (calls table, trace, call detail,
 * export) reads these instead of counting again, and sorting and filtering by
 * `summary.weave.total_tokens` use the same rule printed as SQL.
 */
export function withWeaveSummary(call: CallRecord): CallRecord {
  // Copied with Object.assign, not a spread: on Node 20 a spread copy of a parsed object takes
  // each property added to it afterwards through the runtime (~0.6 µs a call read; in a loop).
  const summary: Record<string, unknown> = Object.assign({}, call.summary);
  const weave: Record<string, unknown> = Object.assign({}, summary.weave as Record<string, unknown> | undefined);
  const statusCounts = summary.status_counts as Record<string, number> | undefined;
  weave.status =
    call.exception != null ? 'error' : call.ended_at == null ? 'running' : (statusCounts?.error ?? 0) > 0 ? 'descendant_error' : 'success';
  if (call.ended_at && call.started_at) {
    const start = parseIsoToMicros(call.started_at)!;
    const end = parseIsoToMicros(call.ended_at)!;
    weave.latency_ms = Math.trunc((end - start) / 1000);
  }
  if (call.display_name) weave.display_name = call.display_name;
  else weave.trace_name = opDisplayName(call.op_name);
  const tokens = usageTotalsOf(summary.usage);
  if (tokens) Object.assign(weave, tokens);
  summary.weave = weave;
  return { ...call, summary };
}
