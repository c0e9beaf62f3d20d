/**
 * Retention rules and the expiry of calls they decide (Store.ts; docs/operations/retention.md).
 * A rule keeps a project's calls for `days` days from their start; a project rule wins over
 * its entity's default, and with neither the calls are kept forever.
 */

/** Where a rule is set: one project (`<entity>/<project>`) or an entity's default. */
export type RetentionScope = 'project' | 'entity';

export interface RetentionRule {
  scope: RetentionScope;
  /** The project id or the entity name. */
  key: string;
  days: number;
  /** Epoch microseconds. */
  updatedAt: number;
  updatedBy: string;
}

/** A project and the rule in force for it. */
export interface ProjectRetention {
  projectId: string;
  days: number;
  source: RetentionScope;
}

/** What one bounded expiry step removed. */
export interface ExpiredCalls {
  /** Calls removed (or, on ClickHouse, hidden and handed to TTL). */
  calls: number;
  /** Feedback rows on them removed (annotation answers are kept). */
  feedback: number;
  /** Files removed (or, on ClickHouse, hidden) because only these calls referred to them, and their bytes. */
  files: number;
  fileBytes: number;
}

export interface RetentionStore {
  /** The rule set at this scope, or null. */
  getRule(req: { scope: RetentionScope; key: string }): Promise<RetentionRule | null>;
  /** Sets the rule (`days` ≥ 1) or removes it (`days` null); idempotent. */
  setRule(req: { scope: RetentionScope; key: string; days: number | null; updatedAt: number; updatedBy: string }): Promise<void>;
  /** Every rule set, projects' and entities'. */
  listRules(): Promise<RetentionRule[]>;
  /** Every existing project some rule applies to, with the rule in force (the project's own, else its entity's). */
  projectsInForce(): Promise<ProjectRetention[]>;
  /**
   * Removes up to `limit` of the project's calls that started before `before` (epoch µs), one
   * call at a time (a parent and its children expire by their own start), with their feedback,
   * keeping every rollup exact, and the files no remaining call, object version or table row
   * refers to; answers what it removed. Fewer than `limit` calls means none is left.
   */
  expireCalls(req: { projectId: string; before: number; limit: number; now: number }): Promise<ExpiredCalls>;
}
