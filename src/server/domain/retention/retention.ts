/**
 * Retention rules as the API, the CLI and the dashboard see them: the rule in force for a
 * project (its own, else its entity's default, else none: kept forever) and where it is set
 * (docs/operations/retention.md).
 */
import type { RetentionReadRes } from '../../../contract/retention.js';
import { formatMicros } from '../../core/datetime.js';
import type { RetentionRule } from '../../store/RetentionStore.js';
import type { Store } from '../../store/Store.js';

/** A project (`<entity>/<project>`) or an entity's default. */
export type RetentionTarget = { projectId: string } | { entity: string };

export const entityOf = (target: RetentionTarget): string => ('projectId' in target ? target.projectId.split('/')[0]! : target.entity);

/** What `GET /weft/retention` answers for the target. */
export async function readRetention(store: Store, target: RetentionTarget): Promise<RetentionReadRes> {
  const entity = entityOf(target);
  const own = 'projectId' in target ? await store.retention.getRule({ scope: 'project', key: target.projectId }) : null;
  const byEntity = await store.retention.getRule({ scope: 'entity', key: entity });
  const inForce: RetentionRule | null = own ?? byEntity;
  return {
    project_id: 'projectId' in target ? target.projectId : null,
    entity,
    days: inForce?.days ?? null,
    source: inForce?.scope ?? 'none',
    project_days: own?.days ?? null,
    entity_days: byEntity?.days ?? null,
    updated_at: inForce ? formatMicros(inForce.updatedAt) : null,
    updated_by: inForce?.updatedBy ?? null,
  };
}

/** Sets (days ≥ 1) or removes (null) the target's rule; answers the rule in force after it and the one before. */
export async function setRetention(
  store: Store,
  req: { target: RetentionTarget; days: number | null; by: string; now: number },
): Promise<{ before: RetentionReadRes; after: RetentionReadRes }> {
  const before = await readRetention(store, req.target);
  const [scope, key] = 'projectId' in req.target ? (['project', req.target.projectId] as const) : (['entity', req.target.entity] as const);
  await store.retention.setRule({ scope, key, days: req.days, updatedAt: req.now, updatedBy: req.by });
  return { before, after: await readRetention(store, req.target) };
}
