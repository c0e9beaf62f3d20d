/** Conformance suite for RetentionStore: rules by project and entity default, and expiring calls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { Store } from '../Store.js';
import { endWrite, SECOND, startWrite, T0 } from './callWrites.js';

const DAY = 86_400 * SECOND;

const feedback = (projectId: string, id: string, callId: string, over: Partial<FeedbackWrite> = {}): FeedbackWrite => ({
  projectId,
  id,
  weaveRef: `weave:///${projectId}/call/${callId}`,
  wbUserId: 'alice',
  creator: null,
  createdAt: T0,
  feedbackType: 'wandb.reaction.1',
  payloadJson: '{"emoji":"👍"}',
  annotationRef: null,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: null,
  ...over,
});

export function describeRetentionConformance(open: OpenStore): void {
  describe('RetentionStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('keeps a rule per project and per entity, the latest write winning, and removes one with null', async () => {
      const set = (scope: 'project' | 'entity', key: string, days: number | null, at: number) =>
        store.retention.setRule({ scope, key, days, updatedAt: T0 + at, updatedBy: 'admin' });
      await set('entity', 'acme', 30, 1);
      await set('project', 'acme/a', 7, 2);
      await set('project', 'acme/a', 10, 3);
      await set('project', 'acme/gone', 5, 4);
      await set('project', 'acme/gone', null, 5);
      expect(await store.retention.getRule({ scope: 'project', key: 'acme/a' })).toEqual({
        scope: 'project',
        key: 'acme/a',
        days: 10,
        updatedAt: T0 + 3,
        updatedBy: 'admin',
      });
      expect(await store.retention.getRule({ scope: 'project', key: 'acme/gone' })).toBeNull();
      expect((await store.retention.listRules()).map((r) => [r.scope, r.key, r.days])).toEqual([
        ['entity', 'acme', 30],
        ['project', 'acme/a', 10],
      ]);
    });

    it('answers the rule in force per existing project: its own, else its entity default', async () => {
      await store.calls.writeCalls([startWrite('acme/a', 'x'), startWrite('acme/b', 'y'), startWrite('other/c', 'z')]);
      expect(await store.retention.projectsInForce()).toEqual([
        { projectId: 'acme/a', days: 10, source: 'project' },
        { projectId: 'acme/b', days: 30, source: 'entity' },
      ]);
    });

    it('expires calls that started before the cutoff, with their feedback but not annotation answers', async () => {
      const P = 'exp/p';
      await store.calls.writeCalls([
        startWrite(P, 'old1', { startedAt: T0 }),
        endWrite(P, 'old1', { endedAt: T0 + SECOND }),
        startWrite(P, 'old2', { startedAt: T0 + SECOND }),
        startWrite(P, 'new1', { startedAt: T0 + 10 * DAY }),
      ]);
      await store.feedback.createFeedback([
        feedback(P, 'f-old', 'old1'),
        feedback(P, 'f-answer', 'old1', {
          feedbackType: 'wandb.annotation.q',
          annotationRef: 'weave:///exp/p/object/q:abc',
          queueId: 'q1',
        }),
        feedback(P, 'f-new', 'new1'),
      ]);
      const first = await store.retention.expireCalls({ projectId: P, before: T0 + DAY, limit: 1, now: T0 + 11 * DAY });
      expect(first.calls).toBe(1);
      const rest = await store.retention.expireCalls({ projectId: P, before: T0 + DAY, limit: 10, now: T0 + 11 * DAY });
      expect(rest.calls).toBe(1);
      expect(first.feedback + rest.feedback).toBe(1);
      expect(await store.retention.expireCalls({ projectId: P, before: T0 + DAY, limit: 10, now: T0 + 11 * DAY })).toEqual({
        calls: 0,
        feedback: 0,
        files: 0,
        fileBytes: 0,
      });
      expect(await store.calls.countCalls({ projectId: P })).toBe(1);
      expect(await store.calls.readCall({ projectId: P, id: 'old1' })).toBeNull();
      expect(await store.calls.readCall({ projectId: P, id: 'new1' })).not.toBeNull();
      const left = await store.feedback.queryFeedback({ projectId: P, fields: ['id'] });
      expect(left.map((f) => f.id).sort()).toEqual(['f-answer', 'f-new']);
    });
  });
}
