/** Weft's alert-rule endpoints (`/weft/alerts`, docs/alerts.md). */
import { createAlertRule, readAlertRule, testAlertRule, toAlertEventRead, updateAlertRule } from '../domain/alerts/alertRules.js';
import { entityOf, recordFor, type AuditContext } from '../audit/auditTrail.js';
import { defineRoutes } from '../http/defineRoutes.js';

/** The most events one answer lists. */
const EVENTS_PAGE = 200;

export const alertRoutes = defineRoutes({
  alertsList: {
    runs: 'main',
    handler: async (req, { store }) => {
      const rules = await store.alerts.listAlertRules(req.project_id);
      return { rules: await Promise.all(rules.map((r) => readAlertRule(store, r))) };
    },
  },

  alertCreate: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, clock } = ctx;
      const { box, outbound } = inference.registry;
      const rule = await createAlertRule(
        { store, box, outbound, userId: user.username, isAdmin: user.isAdmin, now: clock.nowMicros() },
        req,
      );
      await recordAlert(ctx, req.project_id, rule.id, { change: 'created', name: rule.name, webhook_set: true });
      return { rule };
    },
  },

  alertUpdate: {
    runs: 'main',
    handler: async (req, ctx) => {
      const { store, inference, user, clock } = ctx;
      const { box, outbound } = inference.registry;
      const rule = await updateAlertRule({ store, box, outbound, isAdmin: user.isAdmin, now: clock.nowMicros() }, req);
      await recordAlert(ctx, req.project_id, rule.id, { change: 'changed', name: rule.name, webhook_set: req.webhook_url !== undefined });
      return { rule };
    },
  },

  alertDelete: {
    runs: 'main',
    handler: async (req, ctx) => {
      const deleted = await ctx.store.alerts.deleteAlertRule({ projectId: req.project_id, id: req.rule_id });
      if (deleted) await recordAlert(ctx, req.project_id, req.rule_id, { change: 'deleted' });
      return { deleted };
    },
  },

  alertTest: {
    runs: 'main',
    handler: async (req, { store, inference, clock }) => {
      const { box, outbound } = inference.registry;
      return testAlertRule({ store, box, outbound, now: clock.nowMicros() }, req);
    },
  },

  alertEvents: {
    runs: 'main',
    handler: async (req, { store }) => ({
      events: (await store.alerts.listAlertEvents({ projectId: req.project_id, ruleId: req.rule_id ?? null, limit: EVENTS_PAGE })).map(
        toAlertEventRead,
      ),
    }),
  },
});

/** A rule change as an audit row: what changed and whether a webhook URL was given, never the URL. */
function recordAlert(ctx: AuditContext, projectId: string, ruleId: string, details: Record<string, string | boolean>): Promise<void> {
  return recordFor(ctx, { action: 'alert.changed', target: ruleId, entity: entityOf(projectId), projectId, details });
}
