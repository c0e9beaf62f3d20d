/**
 * The redaction part of the storage seam (see Store.ts for the contract every store keeps):
 * the rules that blank secrets out of data at ingest, per project or per entity (an entity's
 * rules apply to every project in it, beside the project's own). What a rule means and how it is
 * applied is domain/redaction/; a store keeps rules as given. docs/security/redaction.md.
 */

/** `key`: an object key (case-insensitive); `builtin`: a named pattern; `regex`: a custom pattern. */
export type RedactionRuleKind = 'key' | 'builtin' | 'regex';

export interface RedactionRuleRecord {
  id: string;
  /** `<entity>` for an entity-wide rule, `<entity>/<project>` for a project's. */
  scope: string;
  kind: RedactionRuleKind;
  /** The key name (lower case), the built-in's name, or the regular expression's source. */
  value: string;
  /** What the marker of a regex rule names (`[redacted:regex:<label>]`); the value otherwise. */
  label: string;
  createdBy: string;
  createdAt: number;
}

export interface RedactionStore {
  /** The rules of these scopes, oldest first. */
  listRules(scopes: readonly string[]): Promise<RedactionRuleRecord[]>;
  getRule(id: string): Promise<RedactionRuleRecord | null>;
  addRule(rule: RedactionRuleRecord): Promise<void>;
  /** Answers whether a rule was deleted. */
  deleteRule(id: string): Promise<boolean>;
  /**
   * A number that changes whenever any rule is added or deleted, read by each process to drop
   * its cached rules when another process changed them (domain/redaction/ruleCache.ts).
   */
  epoch(): Promise<number>;
}
