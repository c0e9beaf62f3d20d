/** Redaction rule endpoints (docs/security/redaction.md): list, add and remove. */
import { BUILTIN_NAMES } from '../../contract/redaction.js';
import { actorOf } from '../audit/auditTrail.js';
import { requireRole } from '../auth/roles.js';
import { addRule, listRules, removeRule, toRuleRead } from '../domain/redaction/rules.js';
import { NotFoundError } from '../errors.js';
import { defineRoutes } from '../http/defineRoutes.js';
import type { RedactionRuleRecord } from '../store/RedactionStore.js';
import type { RequestContext } from '../http/defineRoutes.js';
import type { AuthUser } from '../auth/authenticate.js';

const targetOf = (req: { project_id?: string | undefined; entity?: string | undefined }): string => req.project_id ?? req.entity!;

/** One 'redaction.changed' row: the rule's kind and name, never sample data. */
function audit(ctx: RequestContext & { user: AuthUser }, rule: RedactionRuleRecord, change: 'added' | 'removed'): Promise<void> {
  const [entity] = rule.scope.split('/');
  return ctx.audit.record({
    actor: actorOf(ctx.user),
    address: ctx.remoteIp,
    action: 'redaction.changed',
    target: rule.scope,
    entity: entity!,
    projectId: rule.scope.includes('/') ? rule.scope : null,
    outcome: 'success',
    details: { change, rule_id: rule.id, kind: rule.kind, name: rule.kind === 'regex' ? rule.label : rule.value },
  });
}

export const redactionRoutes = defineRoutes({
  redactionList: {
    runs: 'read',
    // An entity's rules are checked below, where the entity is known.
    projects: () => [],
    handler: async (req, { store, user }) => {
      requireRole(user, targetOf(req), 'viewer', 'see redaction rules');
      const rules = await listRules(store, req.project_id ? { projectId: req.project_id } : { entity: req.entity! });
      return { rules: rules.map(toRuleRead), builtins: [...BUILTIN_NAMES] };
    },
  },

  redactionAdd: {
    runs: 'write',
    projects: () => [],
    handler: async (req, ctx) => {
      const scope = targetOf(req);
      requireRole(ctx.user, scope, 'admin', 'change redaction rules');
      const rule = await addRule(ctx.store, {
        scope,
        key: req.key,
        pattern: req.pattern,
        label: req.label,
        createdBy: ctx.user.username,
        now: ctx.clock.nowMicros(),
      });
      await audit(ctx, rule, 'added');
      return { rule: toRuleRead(rule) };
    },
  },

  redactionDelete: {
    runs: 'write',
    projects: () => [],
    handler: async (req, ctx) => {
      const rule = await ctx.store.redaction.getRule(req.rule_id);
      if (!rule) throw new NotFoundError(`Redaction rule ${req.rule_id} not found`);
      requireRole(ctx.user, rule.scope, 'admin', 'change redaction rules');
      const deleted = await removeRule(ctx.store, rule.id);
      if (deleted) await audit(ctx, rule, 'removed');
      return { deleted };
    },
  },
});
