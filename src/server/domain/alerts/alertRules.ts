/**
 * Alert rules (docs/alerts.md): create, change, snooze, delete, read, and "Send test". The
 * webhook URL is sealed with the server secret before it reaches the store, bound to the rule
 * id, and answered only as a mask. Where a rule may send is guarded as a provider's base URL is
 * (docs/security/outbound.md): an address WEFT_OUTBOUND_ALLOW opens is an admin's to name.
 */
import type { AlertCreateReq, AlertEventRead, AlertRuleRead, AlertUpdateReq } from '../../../contract/alerts.js';
import type { SecretBox } from '../../auth/secretBox.js';
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import { uuidv7 } from '../../core/ids.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { OutboundError, type OutboundClient } from '../../outbound/outboundClient.js';
import type { AlertEventRecord, AlertRuleRecord, AlertSpec } from '../../store/AlertsStore.js';
import type { Store } from '../../store/Store.js';
import { deliverAlert, maskWebhookUrl, type DeliveryResult } from './alertDelivery.js';

export interface AlertDeps {
  store: Store;
  box: SecretBox;
  outbound: OutboundClient;
}

export const toAlertEventRead = (e: AlertEventRecord): AlertEventRead => ({
  id: e.id,
  rule_id: e.ruleId,
  state: e.state,
  value: e.value,
  threshold: e.threshold,
  at: formatMicros(e.at),
  delivery: e.delivery,
  detail: e.detail,
});

export function toAlertRuleRead(r: AlertRuleRecord, last: AlertEventRecord | null): AlertRuleRead {
  return {
    id: r.id,
    project_id: r.projectId,
    name: r.name,
    metric: r.spec.metric,
    comparison: r.spec.comparison,
    threshold: r.spec.threshold,
    window_minutes: r.spec.windowMinutes,
    op_name: r.spec.opName,
    scorer: r.spec.scorer,
    field_path: r.spec.fieldPath,
    format: r.spec.format,
    enabled: r.enabled,
    webhook_mask: r.webhookMask,
    snoozed_until: formatMicrosOrNull(r.snoozedUntil),
    state: last?.state === 'firing' ? 'firing' : 'ok',
    last_event: last ? toAlertEventRead(last) : null,
    created_by: r.createdBy,
    created_at: formatMicros(r.createdAt),
    updated_at: formatMicros(r.updatedAt),
  };
}

/** A rule with the last event that decides its state. */
export async function readAlertRule(store: Store, r: AlertRuleRecord): Promise<AlertRuleRead> {
  const [last] = await store.alerts.listAlertEvents({ projectId: r.projectId, ruleId: r.id, limit: 1 });
  return toAlertRuleRead(r, last ?? null);
}

function checkSpec(spec: AlertSpec): void {
  if ((spec.metric === 'score_mean' || spec.metric === 'judge_kappa') && !spec.scorer) {
    const what = spec.metric === 'score_mean' ? 'whose feedback is averaged' : 'compared with the reviewers';
    throw new ValidationError([{ loc: ['body', 'scorer'], msg: `${spec.metric} needs the scorer ${what}`, type: 'missing' }]);
  }
}

/** Whether the URL may be saved by this user, and whether WEFT_OUTBOUND_ALLOW's addresses are open to it. */
async function checkWebhookUrl(outbound: OutboundClient, url: string, isAdmin: boolean): Promise<boolean> {
  const u = new URL(url);
  const named = outbound.allow.namesHost(u.hostname, u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);
  if (named && !isAdmin) {
    throw new ForbiddenError(`Only an admin may send alerts to ${u.host}: WEFT_OUTBOUND_ALLOW opens it for the operator's own network.`);
  }
  try {
    await outbound.checkUrl(url, named);
  } catch (err) {
    if (err instanceof OutboundError) throw new BadRequestError(`webhook_url cannot be used: ${err.message}`);
    throw err;
  }
  return named;
}

export async function createAlertRule(
  deps: AlertDeps & { userId: string; isAdmin: boolean; now: number },
  req: AlertCreateReq,
): Promise<AlertRuleRead> {
  const spec: AlertSpec = {
    metric: req.metric,
    comparison: req.comparison,
    threshold: req.threshold,
    windowMinutes: req.window_minutes,
    opName: req.op_name ?? null,
    scorer: req.scorer ?? null,
    fieldPath: req.field_path ?? null,
    format: req.format,
  };
  checkSpec(spec);
  const trusted = await checkWebhookUrl(deps.outbound, req.webhook_url, deps.isAdmin);
  const id = uuidv7();
  const record: AlertRuleRecord = {
    id,
    projectId: req.project_id,
    name: req.name,
    spec,
    webhookSealed: deps.box.encrypt(req.webhook_url, id),
    webhookMask: maskWebhookUrl(req.webhook_url),
    trusted,
    enabled: req.enabled,
    snoozedUntil: null,
    createdBy: deps.userId,
    createdAt: deps.now,
    updatedAt: deps.now,
  };
  await deps.store.alerts.saveAlertRule(record);
  return toAlertRuleRead(record, null);
}

async function getRule(store: Store, projectId: string, id: string): Promise<AlertRuleRecord> {
  const rule = await store.alerts.getAlertRule({ projectId, id });
  if (!rule) throw new NotFoundError(`Alert rule ${id} not found in ${projectId}`);
  return rule;
}

export async function updateAlertRule(deps: AlertDeps & { isAdmin: boolean; now: number }, req: AlertUpdateReq): Promise<AlertRuleRead> {
  const old = await getRule(deps.store, req.project_id, req.rule_id);
  const pick = <T>(v: T | null | undefined, keep: T | null): T | null => (v === undefined ? keep : (v ?? null));
  const spec: AlertSpec = {
    metric: req.metric ?? old.spec.metric,
    comparison: req.comparison ?? old.spec.comparison,
    threshold: req.threshold ?? old.spec.threshold,
    windowMinutes: req.window_minutes ?? old.spec.windowMinutes,
    opName: pick(req.op_name, old.spec.opName),
    scorer: pick(req.scorer, old.spec.scorer),
    fieldPath: pick(req.field_path, old.spec.fieldPath),
    format: req.format ?? old.spec.format,
  };
  checkSpec(spec);
  const record: AlertRuleRecord = { ...old, spec, name: req.name ?? old.name, enabled: req.enabled ?? old.enabled, updatedAt: deps.now };
  if (req.webhook_url !== undefined) {
    record.trusted = await checkWebhookUrl(deps.outbound, req.webhook_url, deps.isAdmin);
    record.webhookSealed = deps.box.encrypt(req.webhook_url, old.id);
    record.webhookMask = maskWebhookUrl(req.webhook_url);
  }
  if (req.snooze_minutes !== undefined) record.snoozedUntil = req.snooze_minutes > 0 ? deps.now + req.snooze_minutes * 60_000_000 : null;
  await deps.store.alerts.saveAlertRule(record);
  return readAlertRule(deps.store, record);
}

/** "Send test": one delivery of a test event now, recorded nowhere; answers the webhook's status. */
export async function testAlertRule(
  deps: AlertDeps & { now: number },
  req: { project_id: string; rule_id: string },
): Promise<Omit<DeliveryResult, 'attempts'>> {
  const rule = await getRule(deps.store, req.project_id, req.rule_id);
  const { ok, status, error } = await deliverAlert(deps, rule, { state: 'firing', value: null, at: deps.now, test: true });
  return { ok, status, error };
}
