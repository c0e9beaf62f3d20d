/** Retention rules (`/weft/retention`): read by viewers, set by admins of the project or entity (docs/operations/retention.md). */
import { actorOf } from '../audit/auditTrail.js';
import { requireRole } from '../auth/roles.js';
import { readRetention, setRetention, type RetentionTarget } from '../domain/retention/retention.js';
import { BadRequestError } from '../errors.js';
import { defineRoutes } from '../http/defineRoutes.js';

function targetOf(req: { project_id?: string | null; entity?: string | null }): RetentionTarget {
  if (req.project_id && req.entity) throw new BadRequestError('Give project_id or entity, not both');
  if (req.project_id) return { projectId: req.project_id };
  if (req.entity) return { entity: req.entity };
  throw new BadRequestError('Give project_id ("<entity>/<project>") for a project\'s rule, or entity for its default');
}

const nameOf = (t: RetentionTarget): string => ('projectId' in t ? t.projectId : t.entity);

export const retentionRoutes = defineRoutes({
  retentionRead: {
    runs: 'read',
    handler: async (req, { store, user }) => {
      const target = targetOf(req);
      requireRole(user, nameOf(target), 'viewer', 'see its retention rule');
      return readRetention(store, target);
    },
  },

  retentionSet: {
    runs: 'main',
    handler: async (req, { store, user, clock, audit, remoteIp }) => {
      const target = targetOf(req);
      const name = nameOf(target);
      requireRole(user, name, 'admin', 'change its retention rule');
      const { before, after } = await setRetention(store, { target, days: req.days, by: user.username, now: clock.nowMicros() });
      await audit.record({
        actor: actorOf(user),
        address: remoteIp,
        action: 'retention.changed',
        target: name,
        entity: after.entity,
        projectId: after.project_id,
        outcome: 'success',
        details: {
          scope: 'projectId' in target ? 'project' : 'entity',
          days_before: 'projectId' in target ? before.project_days : before.entity_days,
          days_after: req.days,
        },
      });
      return after;
    },
  },
});
