/**
 * Row versions across replicas whose clocks disagree (docs/clickhouse.md "Row versions"): two
 * stores on one database, one clock 10 minutes behind and one 10 minutes ahead, take turns
 * changing the same rows; the later change must win when read through either, in both orders.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import type { ObjectWrite } from '../ObjectsStore.js';
import type { PriceRecord } from '../CostsStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { ProviderRecord } from '../ProvidersStore.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const MINUTES_10 = 10 * 60_000;
const P = 'ann-co/proj';

const object = (digest: string, createdAt: number): ObjectWrite => ({
  projectId: P,
  objectId: 'model',
  digest,
  kind: 'object',
  baseObjectClass: null,
  leafObjectClass: null,
  valJson: JSON.stringify({ digest }),
  sizeBytes: 10,
  wbUserId: null,
  createdAt,
});

const provider = (name: string, now: number): ProviderRecord => ({
  id: 'prov1',
  projectId: P,
  name,
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKeySealed: null,
  apiKeyMask: null,
  authStyle: 'bearer',
  extraHeaders: {},
  models: [],
  priceIds: [],
  createdBy: 'ann',
  createdAt: now,
  updatedAt: now,
});

const price = (cost: number, now: number): PriceRecord => ({
  id: 'price1',
  pricingLevel: 'project',
  pricingLevelId: P,
  providerId: 'openai',
  llmId: 'my-model',
  effectiveDate: now,
  promptTokenCost: cost,
  completionTokenCost: cost,
  promptTokenCostUnit: 'USD',
  completionTokenCostUnit: 'USD',
  createdBy: 'ann',
  createdAt: now,
});

const feedback = (note: string, now: number): FeedbackWrite => ({
  projectId: P,
  id: 'fb1',
  weaveRef: `weave:///${P}/call/c1`,
  wbUserId: 'ann',
  creator: null,
  createdAt: now,
  feedbackType: 'wandb.note.1',
  payloadJson: JSON.stringify({ note }),
  annotationRef: null,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: null,
});

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe.each([
    { order: 'the slow replica first', firstSkew: -MINUTES_10, secondSkew: MINUTES_10 },
    { order: 'the fast replica first', firstSkew: MINUTES_10, secondSkew: -MINUTES_10 },
  ])('replica clocks 20 minutes apart, $order', ({ firstSkew, secondSkew }) => {
    let first: ClickHouseStore;
    let second: ClickHouseStore;
    let db: Awaited<ReturnType<typeof createTempClickHouseDatabase>>;
    /** The two replicas, taking turns: the n-th change goes through `turn(n)`. */
    const turn = (n: number) => (n % 2 === 0 ? first : second);
    const both = () => [first, second];
    const now = Date.now() * 1000;

    beforeEach(async () => {
      db = await createTempClickHouseDatabase();
      first = await ClickHouseStore.open({ ...db, now: () => Date.now() + firstSkew });
      second = await ClickHouseStore.open({ ...db, now: () => Date.now() + secondSkew });
    });
    afterEach(async () => {
      await first.close();
      await second.close();
      await db.drop();
    });

    it('keeps the later of every account change', async () => {
      await turn(0).accounts.upsertUser({ username: 'ann', passwordHash: 'h0', entities: ['ann-co', 'other-co'] });
      for (let n = 1; n <= 4; n++) {
        const store = turn(n);
        await store.accounts.upsertUser({ username: 'ann', passwordHash: `h${n}` });
        await store.accounts.upsertUser({ username: 'ann', isAdmin: n % 2 === 1 });
        await store.accounts.setDefaultEntity('ann', n % 2 === 1 ? 'other-co' : 'ann-co');
        await store.accounts.setRole('ann', 'ann-co', n % 2 === 1 ? 'viewer' : 'admin');
        await store.accounts.setRole('ann', 'ann-co/proj', n % 2 === 1 ? 'annotator' : null);
        for (const reader of both()) {
          const user = await reader.accounts.getUser('ann');
          expect(user).toMatchObject({
            passwordHash: `h${n}`,
            isAdmin: n % 2 === 1,
            defaultEntity: n % 2 === 1 ? 'other-co' : 'ann-co',
            roles: { 'ann-co': n % 2 === 1 ? 'viewer' : 'admin', 'other-co': 'member' },
            projectRoles: n % 2 === 1 ? { 'ann-co/proj': 'annotator' } : {},
          });
        }
      }
    });

    it('keeps the later of key and session changes, and ended sessions and revoked keys final', async () => {
      await turn(0).accounts.upsertUser({ username: 'ann', passwordHash: 'h0', entities: ['ann-co'] });
      await turn(0).accounts.createApiKey({ keyId: 'k1', username: 'ann', keyHash: 'scrypt$0', name: '', createdAt: now });
      await turn(1).accounts.updateApiKeyHash('k1', 'sha256$1');
      for (const reader of both()) expect((await reader.accounts.getApiKey('k1'))?.keyHash).toBe('sha256$1');
      expect(await turn(2).accounts.revokeApiKey('k1', now + 2)).toBe(true);
      for (const reader of both()) expect((await reader.accounts.getApiKey('k1'))?.revokedAt).toBe(now + 2);
      // A rewrite after the revocation (a hash upgrade that read the key before) keeps it revoked.
      const revoked = (await turn(3).accounts.getApiKey('k1'))!;
      vi.spyOn(turn(3).accounts, 'getApiKey').mockResolvedValueOnce({ ...revoked, revokedAt: null });
      await turn(3).accounts.updateApiKeyHash('k1', 'sha256$3');
      for (const reader of both()) expect((await reader.accounts.getApiKey('k1'))?.revokedAt).toBe(now + 2);

      const session = {
        sessionId: 's1',
        tokenHash: 't1',
        username: 'ann',
        createdAt: now,
        expiresAt: now + 3600e6,
        userAgent: '',
        address: '',
      };
      await turn(0).accounts.createSession({ ...session, lastSeenAt: now });
      for (let n = 1; n <= 3; n++) {
        await turn(n).accounts.touchSession('s1', now + n);
        for (const reader of both()) expect((await reader.accounts.getSession('s1'))?.lastSeenAt).toBe(now + n);
      }
      expect(await turn(4).accounts.deleteSession('s1')).toBe(true);
      for (const reader of both()) expect(await reader.accounts.getSessionByTokenHash('t1')).toBeNull();
    });

    it('keeps the later of every object, tag and alias change', async () => {
      const objects = (store: ClickHouseStore) => store.objects.queryObjects({ projectId: P, metadataOnly: true });
      await turn(0).objects.createObject(object('d1', now));
      await turn(1).objects.deleteObjects({ projectId: P, objectId: 'model', digests: ['d1'], deletedAt: now + 1 });
      for (const reader of both()) expect(await objects(reader)).toEqual([]);
      await turn(2).objects.createObject(object('d1', now + 2));
      await turn(3).objects.createObject(object('d2', now + 3));
      for (const reader of both()) expect((await objects(reader)).map((o) => o.digest)).toEqual(['d1', 'd2']);

      for (let n = 0; n < 4; n++) {
        const store = turn(n);
        if (n % 2 === 0) await store.objects.addTags({ projectId: P, objectId: 'model', digest: 'd1', tags: ['good'], createdAt: now });
        else await store.objects.removeTags({ projectId: P, objectId: 'model', digest: 'd1', tags: ['good'] });
        // The alias moves from one digest to the other and back.
        await store.objects.setAliases({ projectId: P, objectId: 'model', digest: n % 2 ? 'd2' : 'd1', aliases: ['prod'], createdAt: now });
        for (const reader of both()) {
          expect(await reader.objects.listTags(P)).toEqual(n % 2 === 0 ? ['good'] : []);
          const prod = await reader.objects.readObject({ projectId: P, objectId: 'model', version: { alias: 'prod' }, metadataOnly: true });
          expect(prod?.digest).toBe(n % 2 ? 'd2' : 'd1');
        }
      }
      await turn(4).objects.removeAliases({ projectId: P, objectId: 'model', aliases: ['prod'] });
      for (const reader of both()) expect(await reader.objects.listAliases(P)).toEqual([]);
    });

    it('keeps the later of every queue, provider, price, redaction rule and feedback change', async () => {
      const queue = {
        projectId: P,
        id: 'q1',
        name: 'q0',
        description: '',
        scorerRefs: [],
        displayFields: null,
        reviewersPerItem: 1,
        createdBy: 'ann',
        createdAt: now,
        updatedAt: now,
      };
      await turn(0).annotationQueues.createQueue(queue);
      await turn(0).providers.saveProvider(provider('p0', now));
      await turn(0).costs.createPrices([price(0, now)]);
      await turn(0).feedback.createFeedback([feedback('n0', now)]);
      for (let n = 1; n <= 4; n++) {
        const store = turn(n);
        await store.annotationQueues.updateQueue({ projectId: P, queueId: 'q1', name: `q${n}`, updatedAt: now + n });
        await store.providers.saveProvider(provider(`p${n}`, now + n));
        await store.costs.createPrices([price(n, now + n)]);
        await store.feedback.replaceFeedback({ projectId: P, feedbackId: 'fb1', row: feedback(`n${n}`, now + n) });
        for (const reader of both()) {
          expect((await reader.annotationQueues.readQueue({ projectId: P, queueId: 'q1' }))?.name).toBe(`q${n}`);
          expect((await reader.providers.getProvider({ projectId: P, id: 'prov1' }))?.name).toBe(`p${n}`);
          expect((await reader.costs.pricesFor({ projectId: P, llmIds: ['my-model'] })).map((p) => p.promptTokenCost)).toEqual([n]);
          const notes = await reader.feedback.feedbackForRefs({ projectId: P, weaveRefs: [`weave:///${P}/call/c1`] });
          expect(notes.map((f) => f.payload)).toEqual([{ note: `n${n}` }]);
        }
      }
      await turn(5).annotationQueues.deleteQueue({ projectId: P, queueId: 'q1', deletedAt: now + 5 });
      expect(await turn(6).providers.deleteProvider({ projectId: P, id: 'prov1' })).toBe(true);
      expect(await turn(7).costs.purgePrices({ projectId: P, ids: ['price1'] })).toBe(1);
      expect(await turn(8).feedback.purgeFeedback({ projectId: P, ids: ['fb1'] })).toBe(1);
      for (const reader of both()) {
        expect(await reader.annotationQueues.readQueue({ projectId: P, queueId: 'q1' })).toBeNull();
        expect(await reader.providers.getProvider({ projectId: P, id: 'prov1' })).toBeNull();
        expect(await reader.costs.pricesFor({ projectId: P, llmIds: ['my-model'] })).toEqual([]);
        expect(await reader.feedback.feedbackForRefs({ projectId: P, weaveRefs: [`weave:///${P}/call/c1`] })).toEqual([]);
      }
      // A re-created feedback id (ids may be the client's) comes back after its purge.
      await turn(9).feedback.createFeedback([feedback('again', now + 9)]);
      for (const reader of both())
        expect(await reader.feedback.feedbackForRefs({ projectId: P, weaveRefs: [`weave:///${P}/call/c1`] })).toHaveLength(1);
    });

    it('keeps the later redaction change and moves the redaction epoch with each', async () => {
      const rule = { id: 'r1', scope: 'ann-co', kind: 'key' as const, value: 'secret', label: 'secret', createdBy: 'ann', createdAt: now };
      for (let n = 0; n < 4; n++) {
        const before = await turn(n + 1).redaction.epoch();
        const store = turn(n);
        if (n % 2 === 0) await store.redaction.addRule(rule);
        else expect(await store.redaction.deleteRule('r1')).toBe(true);
        for (const reader of both()) {
          expect(await reader.redaction.getRule('r1')).toEqual(n % 2 === 0 ? rule : null);
          expect(await reader.redaction.epoch()).toBeGreaterThan(before);
        }
      }
    });
  });
});
