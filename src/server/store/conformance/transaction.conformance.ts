/**
 * Conformance suite for `Store.transaction`: writes begun together across sub-stores (a call,
 * feedback on it, a file) apply together, and one refused write takes the others back with it.
 * Every backend's test file calls `describeTransactionConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { CallStartWrite, Store } from '../Store.js';

const P = 'acme/tx';
const T0 = Date.UTC(2024, 0, 1) * 1000;

const start = (id: string): CallStartWrite => ({
  kind: 'start',
  projectId: P,
  id,
  traceId: id,
  parentId: null,
  threadId: null,
  turnId: null,
  opName: 'op',
  displayName: null,
  startedAt: T0,
  attributesJson: '{}',
  inputsJson: '{}',
  otelDumpJson: null,
  inputRefs: [],
  wbUserId: 'alice',
  wbRunId: null,
  wbRunStep: null,
});

const feedback = (id: string, weaveRef: string): FeedbackWrite => ({
  projectId: P,
  id,
  weaveRef,
  wbUserId: 'alice',
  creator: null,
  createdAt: T0,
  feedbackType: 'custom',
  payloadJson: '{}',
  annotationRef: null,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: null,
});

export function describeTransactionConformance(open: OpenStore): void {
  describe('Store.transaction conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const file = (digest: string) => ({ projectId: P, digest, name: 'obj.py', chunks: [new TextEncoder().encode(digest)], createdAt: T0 });
    const feedbackIds = async () => (await store.feedback.queryFeedback({ projectId: P, fields: ['id'] })).map((r) => r.id);

    it('applies writes to several sub-stores together', async () => {
      await store.transaction(() => [
        store.calls.writeCalls([start('c1')]),
        store.feedback.createFeedback([feedback('f1', `weave:///${P}/call/c1`)]),
        store.files.createFile(file('d1')),
      ]);
      expect(await store.calls.readCall({ projectId: P, id: 'c1' })).not.toBeNull();
      expect(await feedbackIds()).toEqual(['f1']);
      expect(await store.files.fileSize({ projectId: P, digest: 'd1' })).toBe(2);
    });

    it('rolls every write back when one is refused, and rejects with its error', async () => {
      const refused = feedback('f2', null as unknown as string); // weave_ref is required
      await expect(
        store.transaction(() => [
          store.calls.writeCalls([start('c2')]),
          store.files.createFile(file('d2')),
          store.feedback.createFeedback([refused]),
        ]),
      ).rejects.toThrow();
      expect(await store.calls.readCall({ projectId: P, id: 'c2' })).toBeNull();
      expect(await store.files.fileSize({ projectId: P, digest: 'd2' })).toBeNull();
      expect(await feedbackIds()).toEqual(['f1']);
    });

    it('leaves the store usable for ordinary writes afterwards', async () => {
      await store.calls.writeCalls([start('c3')]);
      expect(await store.calls.readCall({ projectId: P, id: 'c3' })).not.toBeNull();
    });
  });
}
