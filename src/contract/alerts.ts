/**
 * Alert rules (Weft extension, `/weft/alerts`, docs/alerts.md): a project's rules on a metric over
 * a time window — error rate, p95 latency, cost per day, a scorer's mean, a judge's κ against
 * reviewers — delivered to a
 * webhook as generic JSON or a Slack-compatible `{"text"}` payload, and their history of firings
 * and resolutions. The webhook URL is write-only: answers carry only a mask.
 */
import { z } from 'zod';
import { ProjectId } from './common.js';

export const ALERT_METRICS = ['error_rate', 'latency_p95_ms', 'cost_per_day_usd', 'score_mean', 'judge_kappa'] as const;
export const AlertMetric = z.enum(ALERT_METRICS);
export type AlertMetric = z.infer<typeof AlertMetric>;
export const AlertFormat = z
  .enum(['json', 'slack'])
  .describe('json: the event as JSON; slack: {"text": ...} as Slack incoming webhooks take');
export const AlertComparison = z.enum(['above', 'below']);

/** Longest window a rule may look back over: 7 days. */
export const MAX_ALERT_WINDOW_MINUTES = 7 * 24 * 60;

const RuleFields = {
  name: z.string().trim().min(1).max(128),
  metric: AlertMetric.describe(
    "error_rate is a fraction 0..1; score_mean needs scorer (and field_path when the output is an object); judge_kappa needs scorer (and field_path: the output field) and reads Cohen's κ against reviewers (docs/judge-agreement.md)",
  ),
  comparison: AlertComparison,
  threshold: z.number().finite(),
  window_minutes: z.number().int().min(1).max(MAX_ALERT_WINDOW_MINUTES),
  op_name: z.string().min(1).max(256).nullish().describe('Only calls of this op (any version)'),
  scorer: z
    .string()
    .min(1)
    .max(256)
    .nullish()
    .describe("score_mean, judge_kappa: the scorer's name (its feedback type is wandb.runnable.<scorer>)"),
  field_path: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9_.-]*$/, 'a dotted path such as "output.score" or "output"')
    .nullish()
    .describe(
      'score_mean: the path of the number (or boolean) in the feedback payload, default "output"; judge_kappa: the output field compared, default the whole output',
    ),
  format: AlertFormat.default('json'),
  enabled: z.boolean().default(true),
};

const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe('Where events are POSTed; kept sealed, answered only masked');

export const AlertEventRead = z.object({
  id: z.string(),
  rule_id: z.string(),
  state: z.enum(['firing', 'resolved']),
  value: z.number().nullable(),
  threshold: z.number(),
  at: z.string(),
  delivery: z.enum(['delivered', 'failed', 'snoozed']).describe('snoozed: recorded but not sent'),
  detail: z.string().nullable(),
});
export type AlertEventRead = z.infer<typeof AlertEventRead>;

export const AlertRuleRead = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  metric: AlertMetric,
  comparison: AlertComparison,
  threshold: z.number(),
  window_minutes: z.number().int(),
  op_name: z.string().nullable(),
  scorer: z.string().nullable(),
  field_path: z.string().nullable(),
  format: AlertFormat,
  enabled: z.boolean(),
  webhook_mask: z.string().describe('The URL is never returned: its scheme and host only'),
  snoozed_until: z.string().nullable(),
  state: z.enum(['ok', 'firing']).describe('firing: the last transition fired and has not resolved'),
  last_event: AlertEventRead.nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AlertRuleRead = z.infer<typeof AlertRuleRead>;

// GET /weft/alerts
export const AlertsListReq = z.object({ project_id: ProjectId });
export const AlertsListRes = z.object({ rules: z.array(AlertRuleRead) });

// POST /weft/alerts
export const AlertCreateReq = z.object({ project_id: ProjectId, ...RuleFields, webhook_url: WebhookUrl });
export type AlertCreateReq = z.infer<typeof AlertCreateReq>;
export const AlertRes = z.object({ rule: AlertRuleRead });

// PUT /weft/alerts/:rule_id
export const AlertUpdateReq = z.object({
  project_id: ProjectId,
  rule_id: z.string().min(1),
  name: RuleFields.name.optional(),
  metric: AlertMetric.optional(),
  comparison: AlertComparison.optional(),
  threshold: z.number().finite().optional(),
  window_minutes: RuleFields.window_minutes.optional(),
  op_name: RuleFields.op_name,
  scorer: RuleFields.scorer,
  field_path: RuleFields.field_path,
  format: AlertFormat.optional(),
  enabled: z.boolean().optional(),
  webhook_url: WebhookUrl.optional().describe('Absent: keep the stored URL'),
  snooze_minutes: z
    .number()
    .int()
    .min(0)
    .max(MAX_ALERT_WINDOW_MINUTES)
    .optional()
    .describe("Snooze from now (evaluated, not delivered) for this long; 0 ends a snooze. Uses the server's clock"),
});
export type AlertUpdateReq = z.infer<typeof AlertUpdateReq>;

// DELETE /weft/alerts/:rule_id
export const AlertDeleteReq = z.object({ project_id: ProjectId, rule_id: z.string().min(1) });
export const AlertDeleteRes = z.object({ deleted: z.boolean() });

// POST /weft/alerts/:rule_id/test
export const AlertTestReq = z.object({ project_id: ProjectId, rule_id: z.string().min(1) });
export const AlertTestRes = z.object({
  ok: z.boolean(),
  status: z.number().int().nullable().describe("The webhook's HTTP status, null when it could not be reached"),
  error: z.string().nullable(),
});

// GET /weft/alerts/events
export const AlertEventsReq = z.object({ project_id: ProjectId, rule_id: z.string().min(1).optional() });
export const AlertEventsRes = z.object({ events: z.array(AlertEventRead).describe('Newest first, at most 200') });
