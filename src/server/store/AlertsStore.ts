/**
 * The alerts part of the storage seam (see Store.ts for the contract every store keeps): each
 * project's alert rules and the history of their firings and resolutions (docs/alerts.md).
 * The webhook URL arrives sealed (auth/secretBox.ts) with its mask; a store never sees it in
 * the clear.
 */

import type { AlertMetric } from '../../contract/alerts.js';

/** What a rule watches and when it fires; stored as one JSON value. */
export interface AlertSpec {
  metric: AlertMetric;
  comparison: 'above' | 'below';
  threshold: number;
  windowMinutes: number;
  /** Only calls of this op (its name, any version); null: every call. */
  opName: string | null;
  /** score_mean, judge_kappa: the scorer (feedback type `wandb.runnable.<scorer>`) and the payload path or output field read. */
  scorer: string | null;
  fieldPath: string | null;
  format: 'json' | 'slack';
}

export interface AlertRuleRecord {
  id: string;
  projectId: string;
  name: string;
  spec: AlertSpec;
  /** `v1.<iv>.<tag>.<ciphertext>`, bound to the rule id. */
  webhookSealed: string;
  /** What may be shown of the URL (scheme and host, the rest elided). */
  webhookMask: string;
  /** Saved by an admin: WEFT_OUTBOUND_ALLOW's addresses are open to it (docs/security/outbound.md). */
  trusted: boolean;
  enabled: boolean;
  /** Until then (epoch µs) the rule is evaluated but delivers nothing; null: not snoozed. */
  snoozedUntil: number | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export type AlertState = 'firing' | 'resolved';
/** delivered / failed: the webhook's answer; snoozed: not sent; test: a "Send test" delivery. */
export type AlertDelivery = 'delivered' | 'failed' | 'snoozed';

export interface AlertEventRecord {
  /** `<rule>:<minute>` for an evaluation's transition, so one evaluation records one event. */
  id: string;
  projectId: string;
  ruleId: string;
  state: AlertState;
  value: number | null;
  threshold: number;
  at: number;
  delivery: AlertDelivery;
  /** Why a delivery failed (never the URL), or null. */
  detail: string | null;
}

export interface AlertsStore {
  listAlertRules(projectId: string): Promise<AlertRuleRecord[]>;
  /** The enabled rules of every project (the sweeper's list). */
  enabledAlertRules(): Promise<AlertRuleRecord[]>;
  getAlertRule(req: { projectId: string; id: string }): Promise<AlertRuleRecord | null>;
  /** Inserts or replaces the rule with this id (its creation kept). */
  saveAlertRule(record: AlertRuleRecord): Promise<void>;
  /** Answers whether a rule was deleted; its events go with it. */
  deleteAlertRule(req: { projectId: string; id: string }): Promise<boolean>;
  /** Records an event; one of an id already recorded changes nothing. */
  addAlertEvent(event: AlertEventRecord): Promise<void>;
  /** Newest first; of one rule when `ruleId` is given. */
  listAlertEvents(req: { projectId: string; ruleId?: string | null; limit: number }): Promise<AlertEventRecord[]>;
}
