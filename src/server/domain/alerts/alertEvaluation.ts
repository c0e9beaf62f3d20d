/**
 * One evaluation of one alert rule, as a background job (docs/alerts.md "Exactly once"). The
 * sweeper (jobs/AlertSweeper.ts) queues, each minute, one job per enabled rule with the id
 * `alert:<rule>:<minute>`; the jobs store ignores an enqueue of an id it holds and claims each
 * job once, so however many replicas sweep, each rule is evaluated once a minute.
 *
 * The job measures the rule's metric over the window ending at its minute, compares it with the
 * threshold and with the state of the rule's last event, and on a change records a `firing` or
 * `resolved` event and delivers it — unless the rule is snoozed, when the event is recorded as
 * `snoozed` and nothing is sent.
 */
import type { JobRecord } from '../../store/JobsStore.js';
import type { AlertEventRecord } from '../../store/AlertsStore.js';
import type { AlertDeps } from './alertRules.js';
import { deliverAlert, RETRY_DELAYS_MS } from './alertDelivery.js';
import { alertMetricValue } from './alertMetrics.js';

export const ALERT_EVALUATE_JOB = 'alert_evaluate';
export const MINUTE_MICROS = 60_000_000;

/** The job id of a rule's evaluation in one minute (epoch minutes). */
export const alertJobId = (ruleId: string, minute: number) => `alert:${ruleId}:${minute}`;

export interface AlertJobResult {
  value: number | null;
  transition: AlertEventRecord['state'] | null;
  delivery: AlertEventRecord['delivery'] | null;
}

export async function runAlertEvaluateJob(deps: AlertDeps, job: JobRecord, ctx: { signal: AbortSignal }): Promise<AlertJobResult> {
  const ruleId = String(job.payload.rule_id);
  const minute = Number(job.payload.minute);
  const none: AlertJobResult = { value: null, transition: null, delivery: null };
  const rule = await deps.store.alerts.getAlertRule({ projectId: job.projectId, id: ruleId });
  if (!rule || !rule.enabled) return none;
  const at = minute * MINUTE_MICROS;
  const value = await alertMetricValue(deps.store, rule.projectId, rule.spec, at);
  // No calls (or scores) in the window: no evidence either way, the state stays.
  if (value === null) return none;
  const breached = rule.spec.comparison === 'above' ? value > rule.spec.threshold : value < rule.spec.threshold;
  const [last] = await deps.store.alerts.listAlertEvents({ projectId: rule.projectId, ruleId: rule.id, limit: 1 });
  const firing = last?.state === 'firing';
  if (breached === firing) return { ...none, value };
  const state = breached ? 'firing' : 'resolved';
  const snoozed = rule.snoozedUntil !== null && rule.snoozedUntil > at;
  const sent = snoozed
    ? null
    : await deliverAlert({ ...deps, signal: ctx.signal }, rule, { state, value, at, test: false }, RETRY_DELAYS_MS);
  const event: AlertEventRecord = {
    id: `${rule.id}:${minute}`,
    projectId: rule.projectId,
    ruleId: rule.id,
    state,
    value,
    threshold: rule.spec.threshold,
    at,
    delivery: sent === null ? 'snoozed' : sent.ok ? 'delivered' : 'failed',
    detail: sent === null ? null : [sent.error, sent.attempts > 1 ? `${sent.attempts} attempts` : null].filter(Boolean).join('; ') || null,
  };
  await deps.store.alerts.addAlertEvent(event);
  return { value, transition: state, delivery: event.delivery };
}
