/**
 * A cheap parse of the hot ingest bodies (`call/start`, `call/end`, `call/upsert_batch`): checks
 * the JSON the request brought against the same rules as the contract's zod schemas and, when it
 * passes, hands that very object to the handler instead of zod's copy of it. Parsing every call
 * of an ingest batch with zod rebuilt each object and record level (and the garbage of those
 * copies) and was the largest cost of ingest after SQLite itself (measured with --cpu-prof in
 * bench:ingest).
 *
 * It only ever says yes for input the schema accepts, and then yields what the handler reads of
 * zod's output (the same values, defaults filled in). Whenever it is unsure it says null and the
 * schema parses the body as before, so every refusal is still zod's own 422, word for word.
 * Unknown keys stay on the objects (zod strips them): the handlers read named fields only.
 * callWriteInput.test.ts checks the two agree on valid bodies and on many broken ones.
 */
import type { z } from 'zod';
import { EndedCall, StartedCall, type CallEndReq, type CallStartReq, type CallUpsertBatchReq } from '../../contract/calls.js';
import { PROJECT_ID_PATTERN } from '../../contract/common.js';
import { parseIsoToMicros } from '../core/datetime.js';

type Raw = Record<string, unknown>;

/** A string schema's length bounds, read from the contract so the two cannot drift apart. */
function lengthBounds(schema: z.ZodType): { min: number; max: number } {
  let s = schema as unknown as { unwrap?: () => unknown; minLength?: number | null; maxLength?: number | null };
  while (typeof s.unwrap === 'function') s = s.unwrap() as typeof s;
  return { min: s.minLength ?? 0, max: s.maxLength ?? Infinity };
}

const ID = lengthBounds(StartedCall.shape.id);
const OP_NAME = lengthBounds(StartedCall.shape.op_name);
const DISPLAY_NAME = lengthBounds(StartedCall.shape.display_name);
const END_ID = lengthBounds(EndedCall.shape.id);

/**
 * A plain JSON object whose own keys zod would copy as they are: JSON.parse makes `"__proto__"`
 * an own key, which zod's copy drops, so such an object is left to zod.
 */
export const isObject = (v: unknown): v is Raw =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;
/**
 * Within bounds counted in UTF-16 units. zod counts characters, never more than the units, so a
 * string within `max` units is within zod's bound; a longer one is left to zod. A non-empty
 * string has at least one character either way, but a minimum above 1 cannot be told from the
 * units, so such a bound always leaves the string to zod.
 */
const isString = (v: unknown, { min, max }: { min: number; max: number }): v is string =>
  typeof v === 'string' && v.length <= max && min <= 1 && v.length >= min;
const isOptString = (v: unknown) => isNullish(v) || typeof v === 'string';
const isOptInt = (v: unknown) => isNullish(v) || Number.isSafeInteger(v);
const isDateTime = (v: unknown) => typeof v === 'string' && parseIsoToMicros(v) !== null;
const isProjectId = (v: unknown) => typeof v === 'string' && PROJECT_ID_PATTERN.test(v);

/** `JsonObject.nullish()` (with a `{}` default when absent): true when it passes, filling the default. */
function jsonObjectField(o: Raw, key: string, withDefault: boolean): boolean {
  const v = o[key];
  if (v === undefined) {
    if (withDefault) o[key] = {};
    return true;
  }
  return v === null || isObject(v);
}

const USAGE_FIELDS = ['prompt_tokens', 'input_tokens', 'completion_tokens', 'output_tokens', 'requests', 'total_tokens'];

/** SummaryInsert: an open object whose `usage` and `status_counts`, when given, hold integer counts. */
function isSummary(v: unknown): boolean {
  if (!isObject(v)) return false;
  const { usage, status_counts: counts } = v;
  if (!isNullish(usage)) {
    if (!isObject(usage)) return false;
    for (const model in usage) {
      const u = usage[model];
      if (!isObject(u)) return false;
      for (const f of USAGE_FIELDS) if (!isOptInt(u[f])) return false;
    }
  }
  if (!isNullish(counts)) {
    if (!isObject(counts)) return false;
    for (const k in counts) if (!Number.isSafeInteger(counts[k])) return false;
  }
  return true;
}

/** StartedCall, checked in place. */
function isStart(s: unknown): boolean {
  return (
    isObject(s) &&
    isProjectId(s.project_id) &&
    (isNullish(s.id) || isString(s.id, ID)) &&
    isString(s.op_name, OP_NAME) &&
    (isNullish(s.display_name) || isString(s.display_name, DISPLAY_NAME)) &&
    (isNullish(s.trace_id) || isString(s.trace_id, ID)) &&
    isOptString(s.parent_id) &&
    isOptString(s.thread_id) &&
    isOptString(s.turn_id) &&
    isDateTime(s.started_at) &&
    isOptString(s.wb_user_id) &&
    isOptString(s.wb_run_id) &&
    isOptInt(s.wb_run_step) &&
    (isNullish(s.otel_dump) || isObject(s.otel_dump)) &&
    jsonObjectField(s, 'attributes', true) &&
    jsonObjectField(s, 'inputs', true)
  );
}

/** EndedCall, checked in place. */
function isEnd(e: unknown): boolean {
  if (!(
    isObject(e) &&
    isProjectId(e.project_id) &&
    isString(e.id, END_ID) &&
    isOptString(e.trace_id) &&
    (isNullish(e.is_eval) || typeof e.is_eval === 'boolean') &&
    (isNullish(e.started_at) || isDateTime(e.started_at)) &&
    isDateTime(e.ended_at) &&
    isOptString(e.exception) &&
    isOptInt(e.wb_run_step_end) &&
    (isNullish(e.summary) || isSummary(e.summary))
  ))
    return false;
  if (e.summary === undefined) e.summary = {};
  return true;
}

/** `{start: StartedCall}`, or null to let the schema decide. */
export function fastCallStartInput(raw: Raw): z.output<typeof CallStartReq> | null {
  return isStart(raw.start) ? (raw as z.output<typeof CallStartReq>) : null;
}

/** `{end: EndedCall}`, or null to let the schema decide. */
export function fastCallEndInput(raw: Raw): z.output<typeof CallEndReq> | null {
  return isEnd(raw.end) ? (raw as z.output<typeof CallEndReq>) : null;
}

/** `{batch: [{mode: 'start', req: {start}} | {mode: 'end', req: {end}}, ...]}`, or null to let the schema decide. */
export function fastUpsertBatchInput(raw: Raw): z.output<typeof CallUpsertBatchReq> | null {
  const { batch } = raw;
  if (!Array.isArray(batch)) return null;
  for (const item of batch) {
    if (!isObject(item) || !isObject(item.req)) return null;
    if (item.mode === 'start' ? !isStart(item.req.start) : item.mode !== 'end' || !isEnd(item.req.end)) return null;
  }
  return raw as z.output<typeof CallUpsertBatchReq>;
}
