/**
 * Redaction on the write paths (docs/security/redaction.md "What is redacted"): each function
 * takes what a route is about to store and replaces, in place, what the project's rules match.
 * A project without rules costs one cached lookup; with rules, a payload's JSON text is only
 * parsed when the rules' probe says something in it may match.
 */
import type { Redaction } from '../../../contract/redaction.js';
import type { CallWrite } from '../../store/CallsStore.js';
import type { FeedbackWrite } from '../../store/FeedbackStore.js';
import type { Store } from '../../store/Store.js';
import type { LosslessValue } from '../objects/losslessJson.js';
import { ruleCacheOf } from './ruleCache.js';

/** JSON text with the rules applied: the same text when nothing matched. */
export function redactJsonText(r: Redaction, text: string): string {
  if (r.probe && !r.probe.test(text)) return text;
  const value: unknown = JSON.parse(text);
  const redacted = r.redactValue(value);
  return redacted === value ? text : JSON.stringify(redacted);
}

const redactNullableJson = (r: Redaction, text: string | null) => (text === null ? null : redactJsonText(r, text));

/**
 * Calls' starts and ends, from every source (the SDKs' call routes and OTLP export): inputs,
 * attributes, the OTLP span dump, output and exception. The summary is left as sent: it holds
 * the usage and status counts that costs and statistics are computed from.
 */
export async function redactCallWrites(store: Store, writes: CallWrite[]): Promise<void> {
  const cache = ruleCacheOf(store);
  let lastProject: string | null = null;
  let r: Redaction | null = null;
  for (const w of writes) {
    if (w.projectId !== lastProject) {
      lastProject = w.projectId;
      r = await cache.forProject(w.projectId);
    }
    if (!r) continue;
    if (w.kind === 'start') {
      w.inputsJson = redactJsonText(r, w.inputsJson);
      w.attributesJson = redactJsonText(r, w.attributesJson);
      w.otelDumpJson = redactNullableJson(r, w.otelDumpJson);
    } else {
      w.outputJson = redactNullableJson(r, w.outputJson);
      if (w.exception !== null) w.exception = r.redactString(w.exception);
    }
  }
}

/** Feedback payloads (create, batch create, replace). */
export async function redactFeedbackWrites(store: Store, rows: FeedbackWrite[]): Promise<void> {
  const cache = ruleCacheOf(store);
  for (const row of rows) {
    const r = await cache.forProject(row.projectId);
    if (r) row.payloadJson = redactJsonText(r, row.payloadJson);
  }
}

/** A losslessly read value (table rows): a new value when something matched, else the same one. */
export function redactLossless(r: Redaction, value: LosslessValue): LosslessValue {
  if (typeof value === 'string') return r.redactString(value);
  if (Array.isArray(value)) {
    let out: LosslessValue[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = redactLossless(r, value[i]!);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value instanceof Map) {
    let out: Map<string, LosslessValue> | null = null;
    for (const [k, v] of value) {
      const marker = r.keyMarker(k);
      const next = marker ?? redactLossless(r, v);
      if (next !== v) (out ??= new Map(value)).set(k, next);
    }
    return out ?? value;
  }
  return value;
}

/** Table rows (table/create, the rows added by table/update), before their digests are taken. */
export async function redactRows(
  store: Store,
  projectId: string,
  rows: LosslessValue[],
): Promise<{ rows: LosslessValue[]; changed: boolean }> {
  const r = await ruleCacheOf(store).forProject(projectId);
  if (!r) return { rows, changed: false };
  let changed = false;
  const out = rows.map((row) => {
    const next = redactLossless(r, row);
    if (next !== row) changed = true;
    return next;
  });
  return { rows: out, changed };
}
