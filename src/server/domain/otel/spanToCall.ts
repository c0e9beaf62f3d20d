/**
 * One OTel span → one call (a start and an end), as the reference's `Span.to_call` maps it
 * (weave/trace_server/opentelemetry/python_spans.py; docs/api/core.md §3.9):
 * ids are the hex span/trace ids, inputs/outputs/usage/model come from the GenAI, OpenInference
 * and other conventions (conventions.ts), the rest of the attributes stay in `attributes`
 * when nothing was recognised, and the whole span is kept as `otel_dump`.
 *
 * Decision: `summary.usage` is only written when the span reports token counts (the reference
 * writes an all-null usage entry for every span, which prices to zero-cost rows).
 */
import { createHash } from 'node:crypto';
import type { EndedCall, StartedCall } from '../../../contract/calls.js';
import { formatMicros, parseIsoToMicros } from '../../core/datetime.js';
import { usageEntryOf } from '../../core/usage.js';
import { expandAttributes, getAttribute, isTruthy, numericKeysToLists, type Tree } from './attributeTree.js';
import { ATTRIBUTE_KEYS, INPUT_KEYS, OUTPUT_KEYS, TIME_OVERRIDE_KEYS, USAGE_KEYS, WANDB_KEYS } from './conventions.js';
import type { OtlpSpan } from './otlpDecode.js';

const MAX_OP_NAME_LENGTH = 128;
const MAX_DISPLAY_NAME_LENGTH = 1024;
const KIND_NAMES = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_NAMES = ['UNSET', 'OK', 'ERROR'];
const STATUS_ERROR = 2;
const DELIMITERS = [',', ';', '|', ' ', '/', '?', '.'];

/**
 * Shortens a name to `maxLen` at a delimiter where it can, ending it with `abbrv`
 * (the reference's `shorten_name`).
 */
export function shortenName(name: string, maxLen: number, abbrv: string, delimiterInAbbrv: boolean): string {
  if (name.length <= maxLen) return name;
  const parts = name.split(/([,;| /?.])/).filter((p) => p !== '');
  const room = maxLen - abbrv.length;
  if (parts.length <= 1 || parts[0]!.length > room) return name.slice(0, room) + abbrv;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    let delimiter = '';
    while (i < parts.length && DELIMITERS.includes(parts[i]!)) delimiter += parts[i++];
    const next = delimiter + (parts[i] ?? '');
    const tail = abbrv.startsWith(delimiter) || !delimiterInAbbrv ? abbrv : delimiter + abbrv;
    if (out.length + next.length >= maxLen - tail.length) return out + tail;
    out += next;
  }
  return out;
}

const micros = (nanos: bigint): number => Number(nanos / 1000n);

/** A span whose time cannot be a timestamp; exportTraces rejects that span in `partial_success`. */
export class SpanTimeError extends Error {}

/** Years 0001 to 9999, in epoch µs: what ISO 8601 text (and every backend's DateTime64) can hold. */
const MIN_MICROS = -62_135_596_800_000_000; // 0001-01-01
const END_MICROS = 253_402_300_800_000_000; // 10000-01-01, excluded

/** `formatMicros`, or a SpanTimeError naming the field when the time is outside years 1–9999. */
function spanTime(us: number, field: string): string {
  if (!Number.isFinite(us) || us < MIN_MICROS || us >= END_MICROS) {
    throw new SpanTimeError(`${field} is outside the years 1 to 9999 (${us} µs since 1970)`);
  }
  return formatMicros(us);
}

/**
 * A langfuse time override in epoch µs, or null. As in the reference, an integer is unix
 * nanoseconds and a double unix seconds; text is ISO 8601. The decoder (otlpDecode.ts) hands an
 * int64 beyond 2^53 over as its digits, which every nanosecond time after April 1970 is, and a
 * double as a number.
 */
function overrideTime(v: unknown): number | null {
  if (typeof v === 'string') return /^-?\d+$/.test(v) ? Number(BigInt(v) / 1000n) : parseIsoToMicros(v);
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v * 1e6);
  return null;
}

const toInt = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : null;
};

/** The first truthy value among the keys, with the key it came from. */
function first(lookup: (key: string) => unknown, keys: readonly string[]): [string, unknown] | null {
  for (const key of keys) {
    const v = lookup(key);
    if (isTruthy(v)) return [key, v];
  }
  return null;
}

/**
 * Attributes and span events in one lookup. `events.<event name>` is the list of those events'
 * attributes, one event or several, as the reference routes them into inputs and output.
 */
function lookupIn(tree: Tree, events: Map<string, Tree[]>) {
  return (key: string): unknown => {
    if (key.startsWith('events.')) return events.get(key.slice('events.'.length));
    return getAttribute(tree, key);
  };
}

/** The span as one start and one end of a call in `projectId`. Throws AttributeConflictError. */
export function spanToCall(span: OtlpSpan, resource: { tree: Tree; droppedAttributesCount: number }, projectId: string) {
  const tree = expandAttributes(span.attributes);
  const events = span.events.map((e) => ({ ...e, tree: expandAttributes(e.attributes) }));
  const byName = new Map<string, Tree[]>();
  for (const e of events) byName.set(e.name, [...(byName.get(e.name) ?? []), e.tree]);
  const lookup = lookupIn(tree, byName);

  const input = first(lookup, INPUT_KEYS);
  let inputs: Record<string, unknown> = input ? { [input[0]]: numericKeysToLists(input[1]) } : {};
  const nestedInputs = input && (input[0] === 'input' || input[0] === 'inputs') ? inputs[input[0]] : undefined;
  if (nestedInputs && typeof nestedInputs === 'object' && !Array.isArray(nestedInputs)) inputs = nestedInputs as Record<string, unknown>;

  const outputHit = first(lookup, OUTPUT_KEYS);
  const output = !outputHit
    ? null
    : outputHit[0] === 'output' || outputHit[0] === 'outputs'
      ? numericKeysToLists(outputHit[1])
      : { [outputHit[0]]: numericKeysToLists(outputHit[1]) };

  const usage: Record<string, number> = {};
  for (const [field, keys] of Object.entries(USAGE_KEYS)) {
    const n = toInt(first(lookup, keys)?.[1]);
    if (n !== null) usage[field] = n;
  }
  // A span without a total gets input + output under the one usage rule (core/usage.ts).
  if (Object.keys(usage).length && usage.total_tokens === undefined) usage.total_tokens = usageEntryOf('', usage).totalTokens;

  let attributes: Record<string, unknown> = {};
  for (const [name, keys] of Object.entries(ATTRIBUTE_KEYS)) {
    const hit = first(lookup, keys);
    if (hit) attributes[name] = numericKeysToLists(hit[1]);
  }
  const params = attributes.model_parameters as Record<string, unknown> | undefined;
  const model = attributes.model ?? (params && typeof params === 'object' ? params.model : undefined);
  const recognised =
    Object.keys(attributes).length > 0 || Object.keys(inputs).length > 0 || output !== null || Object.keys(usage).length > 0;
  const custom = first(lookup, WANDB_KEYS.attributes)?.[1];
  if (custom && typeof custom === 'object' && !Array.isArray(custom))
    attributes = { ...attributes, ...(custom as Record<string, unknown>) };
  if (!recognised) attributes = tree;

  const displayName = first(lookup, WANDB_KEYS.display_name)?.[1];
  const threadId = first(lookup, WANDB_KEYS.thread_id)?.[1];
  const runId = first(lookup, WANDB_KEYS.wb_run_id)?.[1];
  const startedAt = overrideTime(lookup(TIME_OVERRIDE_KEYS.start)) ?? micros(span.startTimeUnixNano);
  const endedAt = overrideTime(lookup(TIME_OVERRIDE_KEYS.end)) ?? micros(span.endTimeUnixNano);
  const opName =
    span.name.length >= MAX_OP_NAME_LENGTH
      ? shortenName(span.name, MAX_OP_NAME_LENGTH, `:${createHash('sha256').update(span.name).digest('hex').slice(0, 4)}`, false)
      : span.name;

  const start: StartedCall = {
    project_id: projectId,
    id: span.spanId,
    trace_id: span.traceId,
    parent_id: span.parentSpanId,
    op_name: opName,
    display_name: typeof displayName === 'string' ? shortenName(displayName, MAX_DISPLAY_NAME_LENGTH, '...', true) : null,
    thread_id: typeof threadId === 'string' && threadId ? threadId : null,
    turn_id: typeof threadId === 'string' && threadId && isTruthy(first(lookup, WANDB_KEYS.is_turn)?.[1]) ? span.spanId : null,
    started_at: spanTime(startedAt, 'start time'),
    attributes,
    inputs,
    otel_dump: {
      name: span.name,
      context: { trace_id: span.traceId, span_id: span.spanId, trace_state: span.traceState },
      kind: KIND_NAMES[span.kind] ?? 'UNSPECIFIED',
      parent_id: span.parentSpanId,
      start_time: spanTime(micros(span.startTimeUnixNano), 'startTimeUnixNano'),
      end_time: spanTime(micros(span.endTimeUnixNano), 'endTimeUnixNano'),
      status: { code: STATUS_NAMES[span.status.code] ?? 'UNSET', message: span.status.message },
      attributes: tree,
      events: events.map((e) => ({
        name: e.name,
        timestamp: spanTime(micros(e.timeUnixNano), `event ${e.name} timeUnixNano`),
        attributes: e.tree,
        dropped_attributes_count: e.droppedAttributesCount,
      })),
      links: span.links.map((l) => ({
        trace_id: l.traceId,
        span_id: l.spanId,
        trace_state: l.traceState,
        attributes: expandAttributes(l.attributes),
        dropped_attributes_count: l.droppedAttributesCount,
      })),
      resource: { attributes: resource.tree, dropped_attributes_count: resource.droppedAttributesCount },
    },
    // An id already qualified ("<project>:<run>") is kept; a bare run id is qualified here.
    wb_run_id: typeof runId === 'string' && runId ? (/[/:]/.test(runId) ? runId : `${projectId}:${runId}`) : null,
    wb_run_step: toInt(first(lookup, WANDB_KEYS.wb_run_step)?.[1]),
  };
  const end: EndedCall = {
    project_id: projectId,
    id: span.spanId,
    ended_at: spanTime(endedAt, 'end time'),
    exception: span.status.code === STATUS_ERROR ? span.status.message : null,
    output,
    summary: Object.keys(usage).length ? { usage: { [typeof model === 'string' && model ? model : 'usage']: usage } } : {},
    wb_run_step_end: toInt(first(lookup, WANDB_KEYS.wb_run_step_end)?.[1]),
  };
  return { start, end };
}
