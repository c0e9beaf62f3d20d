/**
 * Delivering an alert event to its rule's webhook, through the outbound client (the only place
 * the server fetches; it checks the addresses). The URL is opened from the secret box here and
 * used for the one request: it is never logged, stored in the clear or answered, and failures
 * are described without it (docs/alerts.md "Webhooks").
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { SecretBox } from '../../auth/secretBox.js';
import { OutboundError, type OutboundClient } from '../../outbound/outboundClient.js';
import type { AlertRuleRecord, AlertState } from '../../store/AlertsStore.js';
import { formatMicros } from '../../core/datetime.js';

const DELIVERY_TIMEOUT_MS = 10_000;
/** A webhook's answer is read only to close the exchange: a few KiB are plenty. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface AlertMessage {
  state: AlertState;
  value: number | null;
  at: number;
  /** A "Send test" delivery, not an evaluation. */
  test: boolean;
}

export interface DeliveryResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** Requests made: more than one when a transient failure was retried. */
  attempts: number;
}

/** Waits before each retry of a transient failure (no answer, 429 or 5xx): three tries in 2.5 s. */
export const RETRY_DELAYS_MS = [500, 2_000];

const METRIC_LABELS: Record<AlertRuleRecord['spec']['metric'], string> = {
  error_rate: 'error rate',
  latency_p95_ms: 'p95 latency (ms)',
  cost_per_day_usd: 'cost per day (USD)',
  score_mean: 'score mean',
  judge_kappa: "Cohen's κ against reviewers",
};

const show = (v: number | null) => (v === null ? 'no data' : Number.isInteger(v) ? String(v) : v.toPrecision(4));

/** The one-line summary Slack shows (and the JSON payload carries as `text`). */
export function alertText(rule: AlertRuleRecord, m: AlertMessage): string {
  const s = rule.spec;
  const what = `${METRIC_LABELS[s.metric]}${s.scorer ? ` of ${s.scorer}` : ''}${s.opName ? ` for ${s.opName}` : ''}`;
  const head = m.test ? '[TEST] ' : m.state === 'firing' ? '[FIRING] ' : '[RESOLVED] ';
  return `${head}${rule.name} (${rule.projectId}): ${what} is ${show(m.value)} over the last ${s.windowMinutes} min, threshold ${s.comparison} ${show(s.threshold)}`;
}

/** The request body for the rule's format: the event as JSON, or Slack's `{"text"}`. */
export function alertPayload(rule: AlertRuleRecord, m: AlertMessage): Record<string, unknown> {
  const text = alertText(rule, m);
  if (rule.spec.format === 'slack') return { text };
  return {
    text,
    test: m.test,
    state: m.state,
    value: m.value,
    at: formatMicros(m.at),
    project_id: rule.projectId,
    rule: {
      id: rule.id,
      name: rule.name,
      metric: rule.spec.metric,
      comparison: rule.spec.comparison,
      threshold: rule.spec.threshold,
      window_minutes: rule.spec.windowMinutes,
      op_name: rule.spec.opName,
      scorer: rule.spec.scorer,
      field_path: rule.spec.fieldPath,
    },
  };
}

/** `https://hooks.slack.com/…`: the scheme and host, never the path (a Slack URL's path is its token). */
export function maskWebhookUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '…';
  }
}

/**
 * Posts the event, retrying a transient failure (no answer, HTTP 429 or 5xx) after each of
 * `retryDelaysMs`; the test button passes none, to answer at once.
 */
export async function deliverAlert(
  deps: { box: SecretBox; outbound: OutboundClient; signal?: AbortSignal },
  rule: AlertRuleRecord,
  m: AlertMessage,
  retryDelaysMs: readonly number[] = [],
): Promise<DeliveryResult> {
  let result = await deliverOnce(deps, rule, m);
  for (const [i, delay] of retryDelaysMs.entries()) {
    const transient = result.status === null || result.status === 429 || result.status >= 500;
    if (result.ok || !transient || result.error === SEALED_ELSEWHERE || deps.signal?.aborted) break;
    await wait(delay, undefined, deps.signal ? { signal: deps.signal } : {}).catch(() => {});
    if (deps.signal?.aborted) break;
    result = { ...(await deliverOnce(deps, rule, m)), attempts: i + 2 };
  }
  return result;
}

const SEALED_ELSEWHERE = 'the webhook URL was sealed under another server secret: enter it again';

async function deliverOnce(
  deps: { box: SecretBox; outbound: OutboundClient; signal?: AbortSignal },
  rule: AlertRuleRecord,
  m: AlertMessage,
): Promise<DeliveryResult> {
  const url = deps.box.decrypt(rule.webhookSealed, rule.id);
  if (url === null) return { ok: false, status: null, error: SEALED_ELSEWHERE, attempts: 1 };
  try {
    const res = await deps.outbound.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'weft-alerts' },
      body: JSON.stringify(alertPayload(rule, m)),
      trusted: rule.trusted,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      maxBytesSetting: 'the webhook answer cap (64 KiB)',
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    res.discard();
    return res.ok
      ? { ok: true, status: res.status, error: null, attempts: 1 }
      : { ok: false, status: res.status, error: `the webhook answered HTTP ${res.status}`, attempts: 1 };
  } catch (err) {
    // Outbound errors name the host at most; anything else is reported by kind only.
    const error = err instanceof OutboundError ? err.message.split(url).join(rule.webhookMask) : 'the delivery failed';
    return { ok: false, status: null, error, attempts: 1 };
  }
}
