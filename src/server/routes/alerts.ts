/** Weft's alert-rule endpoints (`/weft/alerts`, docs/alerts.md). */
import { createAlertRule, readAlertRule, testAlertRule, toAlertEventRead, updateAlertRule } from '../domain/alerts/alertRules.js';
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
    handler: async (req, { store, inference, user, clock }) => {
      const { box, outbound } = inference.registry;
      const rule = await createAlertRule(
        { store, box, outbound, userId: user.username, isAdmin: user.isAdmin, now: clock.nowMicros() },
        req,
      );
      return { rule };
    },
  },

  alertUpdate: {
    runs: 'main',
    handler: async (req, { store, inference, user, clock }) => {
      const { box, outbound } = inference.registry;
      return { rule: await updateAlertRule({ store, box, outbound, isAdmin: user.isAdmin, now: clock.nowMicros() }, req) };
    },
  },

  alertDelete: {
    runs: 'main',
    handler: async (req, { store }) => ({ deleted: await store.alerts.deleteAlertRule({ projectId: req.project_id, id: req.rule_id }) }),
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
