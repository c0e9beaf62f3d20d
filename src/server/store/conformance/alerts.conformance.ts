/**
 * Conformance suite for AlertsStore: rules saved, replaced (creation kept), listed per project
 * and, when enabled, across projects; events recorded once per id, newest first, per rule; a
 * deleted rule takes its events with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { AlertEventRecord, AlertRuleRecord } from '../AlertsStore.js';
import type { Store } from '../Store.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;

const rule = (id: string, projectId: string, over: Partial<AlertRuleRecord> = {}): AlertRuleRecord => ({
  id,
  projectId,
  name: `rule ${id}`,
  spec: {
    metric: 'error_rate',
    comparison: 'above',
    threshold: 0.5,
    windowMinutes: 5,
    opName: null,
    scorer: null,
    fieldPath: null,
    format: 'json',
  },
  webhookSealed: `v1.sealed-${id}`,
  webhookMask: 'https://hooks.example.com/…',
  trusted: false,
  enabled: true,
  snoozedUntil: null,
  createdBy: 'alice',
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

const event = (id: string, projectId: string, ruleId: string, at: number, over: Partial<AlertEventRecord> = {}): AlertEventRecord => ({
  id,
  projectId,
  ruleId,
  state: 'firing',
  value: 0.75,
  threshold: 0.5,
  at,
  delivery: 'delivered',
  detail: null,
  ...over,
});

export function describeAlertsConformance(open: OpenStore): void {
  describe('AlertsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('saves, replaces and lists rules per project and the enabled ones of every project', async () => {
      await store.alerts.saveAlertRule(rule('a1', 'acme/p', { name: 'b' }));
      await store.alerts.saveAlertRule(rule('a2', 'acme/p', { name: 'a', enabled: false }));
      await store.alerts.saveAlertRule(rule('a3', 'other/q', { snoozedUntil: T0 + 60_000_000, trusted: true }));
      // A replacement keeps the creation and takes everything else.
      const changed = rule('a1', 'acme/p', {
        name: 'b2',
        createdBy: 'bob',
        createdAt: T0 + 9,
        updatedAt: T0 + 10,
        spec: { ...rule('a1', 'acme/p').spec, metric: 'score_mean', scorer: 'judge', fieldPath: 'output.score', format: 'slack' },
      });
      await store.alerts.saveAlertRule(changed);
      expect(await store.alerts.listAlertRules('acme/p')).toEqual([
        rule('a2', 'acme/p', { name: 'a', enabled: false }),
        { ...changed, createdBy: 'alice', createdAt: T0 },
      ]);
      expect(await store.alerts.getAlertRule({ projectId: 'other/q', id: 'a3' })).toEqual(
        rule('a3', 'other/q', { snoozedUntil: T0 + 60_000_000, trusted: true }),
      );
      expect(await store.alerts.getAlertRule({ projectId: 'acme/p', id: 'a3' })).toBeNull();
      expect((await store.alerts.enabledAlertRules()).map((r) => r.id).sort()).toEqual(['a1', 'a3']);
    });

    it('records an event once per id and lists events newest first, per rule or project', async () => {
      await store.alerts.addAlertEvent(event('e1', 'acme/p', 'a1', T0 + 1));
      await store.alerts.addAlertEvent(
        event('e2', 'acme/p', 'a1', T0 + 2, { state: 'resolved', value: 0.1, delivery: 'failed', detail: 'HTTP 500' }),
      );
      await store.alerts.addAlertEvent(event('e3', 'acme/p', 'a2', T0 + 3, { value: null, delivery: 'snoozed' }));
      await store.alerts.addAlertEvent(event('e1', 'acme/p', 'a1', T0 + 1, { state: 'resolved' }));
      expect(await store.alerts.listAlertEvents({ projectId: 'acme/p', ruleId: 'a1', limit: 10 })).toEqual([
        event('e2', 'acme/p', 'a1', T0 + 2, { state: 'resolved', value: 0.1, delivery: 'failed', detail: 'HTTP 500' }),
        event('e1', 'acme/p', 'a1', T0 + 1),
      ]);
      expect((await store.alerts.listAlertEvents({ projectId: 'acme/p', limit: 2 })).map((e) => e.id)).toEqual(['e3', 'e2']);
      expect(await store.alerts.listAlertEvents({ projectId: 'other/q', limit: 10 })).toEqual([]);
    });

    it('deletes a rule once, with its events', async () => {
      expect(await store.alerts.deleteAlertRule({ projectId: 'acme/p', id: 'a1' })).toBe(true);
      expect(await store.alerts.deleteAlertRule({ projectId: 'acme/p', id: 'a1' })).toBe(false);
      expect(await store.alerts.getAlertRule({ projectId: 'acme/p', id: 'a1' })).toBeNull();
      expect((await store.alerts.listAlertEvents({ projectId: 'acme/p', limit: 10 })).map((e) => e.id)).toEqual(['e3']);
      expect((await store.alerts.listAlertRules('acme/p')).map((r) => r.id)).toEqual(['a2']);
    });
  });
}
