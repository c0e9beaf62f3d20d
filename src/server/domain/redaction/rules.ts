/**
 * Adding, listing and removing redaction rules: shared by the `/weft/redaction` endpoints and
 * `npx weft redaction` (docs/security/redaction.md). Permissions are the caller's business.
 */
import { randomUUID } from 'node:crypto';
import {
  BUILTIN_NAMES,
  builtinMarker,
  isBuiltinName,
  keyMarker,
  regexMarker,
  type RedactionRuleRead,
} from '../../../contract/redaction.js';
import { formatMicros } from '../../core/datetime.js';
import { ValidationError } from '../../errors.js';
import type { RedactionRuleRecord } from '../../store/RedactionStore.js';
import type { Store } from '../../store/Store.js';
import { patternProblem } from './patternCheck.js';
import { ruleCacheOf, scopesOf } from './ruleCache.js';

export interface NewRule {
  /** `<entity>` or `<entity>/<project>`. */
  scope: string;
  key?: string | undefined;
  /** A built-in name or a regular expression. */
  pattern?: string | undefined;
  label?: string | undefined;
  createdBy: string;
  now: number;
}

const refuse = (field: string, msg: string) => new ValidationError([{ loc: ['body', field], msg, type: 'value_error' }]);

/** Checks the rule (a custom pattern's speed included; 422 saying why) and stores it. */
export async function addRule(store: Store, rule: NewRule): Promise<RedactionRuleRecord> {
  let kind: RedactionRuleRecord['kind'];
  let value: string;
  let label: string;
  if (rule.key !== undefined) {
    kind = 'key';
    value = rule.key.toLowerCase();
    label = value;
  } else if (rule.pattern !== undefined && isBuiltinName(rule.pattern)) {
    kind = 'builtin';
    value = rule.pattern;
    label = value;
  } else if (rule.pattern !== undefined) {
    const problem = await patternProblem(rule.pattern);
    if (problem) {
      throw refuse(
        'pattern',
        `Pattern refused: ${problem}. (Built-ins: ${BUILTIN_NAMES.join(', ')}; any other text is read as a JavaScript regular expression.)`,
      );
    }
    kind = 'regex';
    value = rule.pattern;
    label = rule.label ?? 'custom';
  } else {
    throw refuse('key', 'Give a key name or a pattern');
  }
  const record: RedactionRuleRecord = {
    id: `rdr_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    scope: rule.scope,
    kind,
    value,
    label,
    createdBy: rule.createdBy,
    createdAt: rule.now,
  };
  await store.redaction.addRule(record);
  ruleCacheOf(store).forget();
  return record;
}

export async function removeRule(store: Store, id: string): Promise<boolean> {
  const deleted = await store.redaction.deleteRule(id);
  ruleCacheOf(store).forget();
  return deleted;
}

/** A project's rules in force (its entity's and its own), or an entity's alone. */
export async function listRules(store: Store, target: { projectId: string } | { entity: string }): Promise<RedactionRuleRecord[]> {
  return store.redaction.listRules('projectId' in target ? scopesOf(target.projectId) : [target.entity]);
}

export function markerOf(r: Pick<RedactionRuleRecord, 'kind' | 'value' | 'label'>): string {
  return r.kind === 'key' ? keyMarker(r.value) : r.kind === 'builtin' ? builtinMarker(r.value) : regexMarker(r.label);
}

export const toRuleRead = (r: RedactionRuleRecord): RedactionRuleRead => ({
  id: r.id,
  scope: r.scope,
  source: r.scope.includes('/') ? 'project' : 'entity',
  kind: r.kind,
  value: r.value,
  label: r.label,
  marker: markerOf(r),
  created_by: r.createdBy,
  created_at: formatMicros(r.createdAt),
});
