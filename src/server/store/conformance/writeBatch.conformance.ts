/**
 * Conformance suite for `Store.apply`: a write batch spanning sub-stores (calls, feedback on
 * them, files, tables, objects, prices, providers) lands together and answers each write's
 * result in position; a batch with a refused write leaves nothing; the same batch applied twice
 * equals it applied once (what a backend without transactions relies on for retries);
 * `applyLast` applies a batch the same way. Every backend's test file calls `describeWriteBatchConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { PriceRecord } from '../CostsStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { ProviderRecord } from '../ProvidersStore.js';
import type { CallStartWrite, ObjectWrite, Store } from '../Store.js';
import type { StoreWrite } from '../WriteBatch.js';

const P = 'acme/batch';
const T0 = Date.UTC(2024, 0, 1) * 1000;
const callRef = (id: string) => `weave:///${P}/call/${id}`;

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

const object = (objectId: string, digest: string): ObjectWrite => ({
  projectId: P,
  objectId,
  digest,
  kind: 'object',
  baseObjectClass: null,
  leafObjectClass: null,
  valJson: `{"digest":"${digest}"}`,
  sizeBytes: 20,
  wbUserId: 'alice',
  createdAt: T0,
});

const price = (id: string): PriceRecord => ({
  id,
  pricingLevel: 'project',
  pricingLevelId: P,
  providerId: 'local',
  llmId: `model-${id}`,
  effectiveDate: T0,
  promptTokenCost: 0.001,
  completionTokenCost: 0.002,
  promptTokenCostUnit: 'USD',
  completionTokenCostUnit: 'USD',
  createdBy: 'alice',
  createdAt: T0,
});

const provider = (id: string, name: string, priceIds: string[]): ProviderRecord => ({
  id,
  projectId: P,
  name,
  baseUrl: 'http://127.0.0.1:1/v1',
  apiKeySealed: null,
  apiKeyMask: null,
  authStyle: 'bearer',
  extraHeaders: {},
  models: [],
  priceIds,
  createdBy: 'alice',
  createdAt: T0,
  updatedAt: T0,
});

const file = (digest: string) => ({ projectId: P, digest, name: 'obj.py', chunks: [new TextEncoder().encode(digest)], createdAt: T0 });

const table = (digest: string, rows: string[]) => ({
  projectId: P,
  digest,
  rowDigests: rows.map((r) => `${digest}-${r}`),
  rows: rows.map((r) => ({ digest: `${digest}-${r}`, valJson: `{"r":"${r}"}` })),
  createdAt: T0,
});

/** A write the store must refuse: feedback without the ref it is about. */
const refused = (id: string): StoreWrite => ({ kind: 'feedback.create', rows: [feedback(id, null as unknown as string)] });

export function describeWriteBatchConformance(open: OpenStore): void {
  describe('Store.apply (write batch) conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const feedbackIds = async () => (await store.feedback.queryFeedback({ projectId: P, fields: ['id'] })).map((r) => r.id).sort();
    const callExists = async (id: string) => (await store.calls.readCall({ projectId: P, id })) !== null;
    const priceIds = async () => (await store.costs.queryPrices({ projectId: P, fields: ['id'] })).map((r) => r.id).sort();

    it('applies writes to several sub-stores together', async () => {
      const results = await store.apply([
        { kind: 'calls.write', calls: [start('c1')] },
        { kind: 'feedback.create', rows: [feedback('f1', callRef('c1'))] },
        { kind: 'files.create', file: file('d1') },
        { kind: 'tables.create', table: table('t1', ['a', 'b']) },
        { kind: 'objects.create', object: object('o1', 'digest-o1') },
        { kind: 'costs.create', prices: [price('p1')] },
        { kind: 'providers.save', provider: provider('prov1', 'local', ['p1']) },
      ]);
      expect(results).toHaveLength(7);
      expect(await callExists('c1')).toBe(true);
      expect(await feedbackIds()).toEqual(['f1']);
      expect(await store.files.fileSize({ projectId: P, digest: 'd1' })).toBe(2);
      expect(await store.tables.readRowDigests({ projectId: P, digest: 't1' })).toEqual(['t1-a', 't1-b']);
      expect((await store.objects.readObject({ projectId: P, objectId: 'o1', version: { latest: true } }))?.digest).toBe('digest-o1');
      expect(await priceIds()).toEqual(['p1']);
      expect((await store.providers.getProvider({ projectId: P, id: 'prov1' }))?.priceIds).toEqual(['p1']);
    });

    it("answers each write's result in its position", async () => {
      await store.apply([
        { kind: 'calls.write', calls: [start('c2')] },
        { kind: 'feedback.create', rows: [feedback('f2', callRef('c2')), feedback('f3', callRef('c2'))] },
      ]);
      const [deleted, purged, replaced, providerDeleted, pricesPurged, missing] = await store.apply([
        { kind: 'calls.delete', delete: { projectId: P, ids: ['c2', 'no-such-call'], deletedAt: T0 + 1 } },
        { kind: 'feedback.purge', purge: { projectId: P, ids: ['f2'] } },
        { kind: 'feedback.replace', replace: { projectId: P, feedbackId: 'f3', row: feedback('f4', callRef('c1')) } },
        { kind: 'providers.delete', delete: { projectId: P, id: 'prov1' } },
        { kind: 'costs.purge', purge: { projectId: P, ids: ['p1'] } },
        { kind: 'providers.delete', delete: { projectId: P, id: 'prov1' } },
      ]);
      expect([deleted, purged, replaced, providerDeleted, pricesPurged, missing]).toEqual([1, 1, true, true, 1, false]);
      expect(await callExists('c2')).toBe(false);
      expect(await feedbackIds()).toEqual(['f1', 'f4']);
      expect(await priceIds()).toEqual([]);
      expect(await store.apply([])).toEqual([]);
    });

    it('applies the writes in order: a later write sees an earlier one', async () => {
      // Replacing feedback created earlier in the same batch finds it.
      const [, replaced] = await store.apply([
        { kind: 'feedback.create', rows: [feedback('f5', callRef('c1'))] },
        { kind: 'feedback.replace', replace: { projectId: P, feedbackId: 'f5', row: feedback('f6', callRef('c1')) } },
      ]);
      expect(replaced).toBe(true);
      expect(await feedbackIds()).toEqual(['f1', 'f4', 'f6']);
    });

    it('leaves nothing when the last write is refused, and rejects with its error', async () => {
      await expect(
        store.apply([
          { kind: 'calls.write', calls: [start('c3')] },
          { kind: 'files.create', file: file('d3') },
          { kind: 'objects.create', object: object('o3', 'digest-o3') },
          { kind: 'costs.create', prices: [price('p3')] },
          refused('f7'),
        ]),
      ).rejects.toThrow();
      expect(await callExists('c3')).toBe(false);
      expect(await store.files.fileSize({ projectId: P, digest: 'd3' })).toBeNull();
      expect(await store.objects.readObject({ projectId: P, objectId: 'o3', version: { latest: true } })).toBeNull();
      expect(await priceIds()).toEqual([]);
      expect(await feedbackIds()).toEqual(['f1', 'f4', 'f6']);
    });

    it('leaves nothing when the first write is refused, and undoes no deletes or purges', async () => {
      await expect(
        store.apply([
          refused('f8'),
          { kind: 'calls.delete', delete: { projectId: P, ids: ['c1'], deletedAt: T0 + 2 } },
          { kind: 'feedback.purge', purge: { projectId: P, ids: ['f1'] } },
          { kind: 'tables.create', table: table('t3', ['x']) },
        ]),
      ).rejects.toThrow();
      expect(await callExists('c1')).toBe(true);
      expect(await feedbackIds()).toEqual(['f1', 'f4', 'f6']);
      expect(await store.tables.readRowDigests({ projectId: P, digest: 't3' })).toBeNull();
    });

    it('converges when the same batch is applied again, as a retry would', async () => {
      const batch: StoreWrite[] = [
        { kind: 'files.create', file: file('d9') },
        { kind: 'tables.create', table: table('t9', ['a']) },
        { kind: 'objects.create', object: object('o9', 'digest-o9') },
        { kind: 'calls.write', calls: [start('c9')] },
        { kind: 'feedback.create', rows: [feedback('f9', callRef('c9'))] },
      ];
      await store.apply(batch);
      await store.apply(batch);
      expect(await callExists('c9')).toBe(true);
      expect(await feedbackIds()).toEqual(['f1', 'f4', 'f6', 'f9']);
      expect(await store.files.fileSize({ projectId: P, digest: 'd9' })).toBe(2);
      expect(await store.tables.readRowDigests({ projectId: P, digest: 't9' })).toEqual(['t9-a']);
      const versions = await store.objects.queryObjects({ projectId: P, filter: { object_ids: ['o9'] } });
      expect(versions.map((v) => v.digest)).toEqual(['digest-o9']);
    });

    it('applyLast applies a batch as apply does, all of it or none, and rejects with the error', async () => {
      await expect(store.applyLast([{ kind: 'calls.write', calls: [start('c11')] }, refused('f11')])).rejects.toThrow();
      expect(await callExists('c11')).toBe(false);
      await store.applyLast([
        { kind: 'calls.write', calls: [start('c11')] },
        { kind: 'feedback.create', rows: [feedback('f11', callRef('c11'))] },
      ]);
      expect(await callExists('c11')).toBe(true);
      expect(await feedbackIds()).toEqual(['f1', 'f11', 'f4', 'f6', 'f9']);
    });

    it('leaves the store usable for ordinary writes afterwards', async () => {
      await store.calls.writeCalls([start('c10')]);
      expect(await callExists('c10')).toBe(true);
    });
  });
}
