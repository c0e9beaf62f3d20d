/**
 * The group commit of small writes on a real engine (docs/clickhouse.md "Small writes"):
 * concurrent requests' last writes become one INSERT per table; each request is still all or
 * nothing; a merged batch that fails answers an error to every request in it, and what was
 * acknowledged is stored. A proxy in front of the engine counts and fails the INSERTs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseFaultProxy, type FaultProxy } from '../../testing/clickhouseFaultProxy.js';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, SECOND, startWrite, T0 } from '../conformance/callWrites.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { WriteBatch } from '../WriteBatch.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const feedbackRow = (projectId: string, id: string, callId: string): FeedbackWrite => ({
  projectId,
  id,
  weaveRef: `weave:///${projectId}/call/${callId}`,
  wbUserId: 'alice',
  creator: null,
  feedbackType: 'wandb.reaction.1',
  payloadJson: '{"emoji":"👍"}',
  annotationRef: null,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: null,
  createdAt: T0,
});

/** What each request answered: 'ok' or its error's message. */
const outcomes = (requests: Promise<void>[]) =>
  Promise.all(
    requests.map((r) =>
      r.then(
        () => 'ok',
        (err: Error) => err.message,
      ),
    ),
  );

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse group commit of small writes', () => {
    let store: ClickHouseStore;
    let proxy: FaultProxy;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await createTempClickHouseDatabase();
      drop = db.drop;
      proxy = await startClickHouseFaultProxy(db.url);
      // Without the search indexer, whose background INSERTs the proxy would count and fail too.
      store = await ClickHouseStore.open({ ...db, url: proxy.url, searchIndexer: false });
    });
    afterAll(async () => {
      await store.close();
      await proxy.close();
      await drop();
    });

    const calls = async (p: string) => {
      const ids: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: p, sortBy: [{ field: 'id', direction: 'asc' }] })) ids.push(c.id);
      return ids;
    };
    const ended = async (p: string, id: string) => (await store.calls.readCall({ projectId: p, id }))?.ended_at ?? null;
    const callsInserts = () => proxy.inserts().calls ?? 0;

    it('writes the parts of concurrent requests in one INSERT into calls, each as if alone', async () => {
      const p = 'acme/grouped';
      await store.apply([{ kind: 'calls.write', calls: [startWrite(p, 'seed')] }]);
      const before = { inserts: callsInserts(), commits: store.groupCommit!.counts.commits };
      // A start per request, an end per request (one of them re-sent without its exception),
      // and a feedback row: twelve requests, as twelve clients would send them at once.
      const requests: WriteBatch[] = [
        ...['a', 'b', 'c', 'd', 'e'].map((id, i): WriteBatch => [
          { kind: 'calls.write', calls: [startWrite(p, id, { startedAt: T0 + i * SECOND })] },
        ]),
        ...['a', 'b', 'c'].map((id): WriteBatch => [
          { kind: 'calls.write', calls: [endWrite(p, id, { exception: id === 'a' ? 'boom' : null })] },
        ]),
        [{ kind: 'calls.write', calls: [endWrite(p, 'a', { exception: null, outputJson: '"again"' })] }],
        [{ kind: 'feedback.create', rows: [feedbackRow(p, 'f1', 'a')] }],
        [
          { kind: 'calls.write', calls: [startWrite(p, 'f')] },
          { kind: 'feedback.create', rows: [feedbackRow(p, 'f2', 'f')] },
        ],
        [{ kind: 'calls.write', calls: [endWrite(p, 'seed')] }],
      ];
      expect(await outcomes(requests.map((b) => store.applyLast(b)))).toEqual(requests.map(() => 'ok'));
      expect(callsInserts() - before.inserts).toBe(1);
      expect(store.groupCommit!.counts.commits - before.commits).toBe(1);
      expect(await calls(p)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'seed']);
      const a = await store.calls.readCall({ projectId: p, id: 'a' });
      expect(a).toMatchObject({ exception: 'boom', output: 'again' });
      expect(await ended(p, 'd')).toBeNull();
      expect(await ended(p, 'seed')).not.toBeNull();
      const feedback = await store.feedback.queryFeedback({ projectId: p, sortBy: [{ field: 'id', direction: 'asc' }] });
      expect(feedback.map((f) => f.id)).toEqual(['f1', 'f2']);
    });

    it('a refused request fails alone and whole; the others in its group land', async () => {
      const p = 'acme/refused';
      const bad = { ...feedbackRow(p, 'f-bad', 'x'), payloadJson: undefined as unknown as string };
      const requests: WriteBatch[] = [
        [{ kind: 'calls.write', calls: [startWrite(p, 'w')] }],
        // Its call and its feedback row are one request: neither may be written.
        [
          { kind: 'calls.write', calls: [startWrite(p, 'x')] },
          { kind: 'feedback.create', rows: [bad] },
        ],
        [{ kind: 'calls.write', calls: [startWrite(p, 'y')] }],
      ];
      const answers = await outcomes(requests.map((b) => store.applyLast(b)));
      expect(answers[0]).toBe('ok');
      expect(answers[1]).toMatch(/no payloadJson/);
      expect(answers[2]).toBe('ok');
      expect(await calls(p)).toEqual(['w', 'y']);
    });

    it('a merged INSERT that fails answers an error to every request in it; what was acknowledged is stored', async () => {
      for (const mode of ['refused', 'lost'] as const) {
        const p = `acme/failed-${mode}`;
        proxy.failEvery('calls', mode);
        let answers: string[];
        try {
          answers = await outcomes(
            ['a', 'b', 'c', 'd'].map((id) => store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, id)] }])),
          );
        } finally {
          proxy.failEvery(null, mode);
        }
        // None acknowledged, so a client retries each; a lost answer's rows may be stored already.
        expect(
          answers.filter((a) => a === 'ok'),
          mode,
        ).toEqual([]);
        expect(await calls(p)).toEqual(mode === 'refused' ? [] : ['a', 'b', 'c', 'd']);
        const retried = await outcomes(
          ['a', 'b', 'c', 'd'].map((id) => store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, id)] }])),
        );
        expect(retried).toEqual(['ok', 'ok', 'ok', 'ok']);
        expect(await calls(p)).toEqual(['a', 'b', 'c', 'd']);
      }
    });

    it('a merged INSERT that fails once is tried again request by request, and each is answered as it lands', async () => {
      const p = 'acme/failed-once';
      // The project's row is written with its first call: the INSERT failed below is then the calls one.
      await store.apply([{ kind: 'calls.write', calls: [startWrite(p, 'seed')] }]);
      const before = callsInserts();
      proxy.failInsert(1, 'refused');
      const answers = await outcomes(['a', 'b', 'c'].map((id) => store.applyLast([{ kind: 'calls.write', calls: [startWrite(p, id)] }])));
      expect(proxy.failed()).toBe('calls');
      expect(answers).toEqual(['ok', 'ok', 'ok']);
      // The merged INSERT, then one per request.
      expect(callsInserts() - before).toBe(4);
      expect(await calls(p)).toEqual(['a', 'b', 'c', 'seed']);
    });
  });
});
