/**
 * Conformance suite for AnnotationQueuesStore: queue CRUD and listing, adding calls (copied
 * fields, duplicates, unknown and deleted calls), item filters, sort and positions, progress
 * written as a change stated as data (in one batch with its feedback), what concurrent submits
 * converge to, and the stats. Every backend runs `describeAnnotationQueuesConformance(open, openPair)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueItemNotFoundError } from '../../errors.js';
import type { OpenStore, OpenStorePair } from '../../testing/tempStore.js';
import type { ProgressChange, ProgressOutcome, ProgressState } from '../AnnotationQueuesStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { CallStartWrite, Store } from '../Store.js';

const P = 'acme/aq';
const T0 = Date.UTC(2024, 0, 1) * 1000;
const SECOND = 1_000_000;

const start = (id: string, at: number, over: Partial<CallStartWrite> = {}): CallStartWrite => ({
  kind: 'start',
  projectId: P,
  id,
  traceId: `tr-${id}`,
  parentId: null,
  threadId: null,
  turnId: null,
  opName: `op-${id}`,
  displayName: null,
  startedAt: T0 + at * SECOND,
  attributesJson: '{}',
  inputsJson: '{}',
  otelDumpJson: null,
  inputRefs: [],
  wbUserId: 'alice',
  wbRunId: null,
  wbRunStep: null,
  ...over,
});

const feedback = (id: string): FeedbackWrite => ({
  projectId: P,
  id,
  weaveRef: `weave:///${P}/call/c1`,
  wbUserId: 'alice',
  creator: null,
  createdAt: T0,
  feedbackType: 'wandb.annotation.q',
  payloadJson: '{"value":1}',
  annotationRef: `weave:///${P}/object/q:d`,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: 'q1',
});

/** A change with one outcome from every current state. */
const every = (outcome: ProgressOutcome): ProgressChange => ({ none: outcome, in_progress: outcome, completed: outcome, skipped: outcome });
/** A change that writes `next` whatever the current state. */
const to = (next: ProgressState): ProgressChange => every({ write: next });
/** A first completion only, as a submit states it. */
const firstOnly = (next: ProgressState): ProgressChange => ({
  none: { write: next },
  in_progress: { write: next },
  completed: { refuse: 'already completed' },
  skipped: { refuse: 'already skipped' },
});

export function describeAnnotationQueuesConformance(open: OpenStore, openPair: OpenStorePair): void {
  describe('AnnotationQueuesStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    const queue = (id: string, name: string, at: number, displayFields: string[] | null = null) =>
      store.annotationQueues.createQueue({
        projectId: P,
        id,
        name,
        description: '',
        scorerRefs: [`weave:///${P}/object/q:d`],
        displayFields,
        reviewersPerItem: 1,
        createdBy: 'alice',
        createdAt: T0 + at,
        updatedAt: T0 + at,
      });
    const items = (queueId: string, over: Partial<Parameters<Store['annotationQueues']['queryItems']>[0]> = {}) =>
      store.annotationQueues.queryItems({ projectId: P, queueId, sortBy: [], includePosition: false, ...over });
    const itemIds = async (queueId: string, over: Parameters<typeof items>[1] = {}) => (await items(queueId, over))!.map((i) => i.callId);
    const progress = (queueId: string, itemId: string, annotator: string, change: ProgressChange, now = T0) =>
      store.annotationQueues.recordProgress({ projectId: P, queueId, itemId, annotator, change, now });
    /** A submit as the domain sends it: the progress write, then its answers, in one batch. */
    const submit = (s: Store, queueId: string, itemId: string, annotator: string, change: ProgressChange, fb: FeedbackWrite[]) =>
      s.apply([
        { kind: 'queues.progress', progress: { projectId: P, queueId, itemId, annotator, change, now: T0 } },
        { kind: 'feedback.create', rows: fb },
      ]);
    const itemOf = async (queueId: string, callId: string) => (await items(queueId, { filter: { call_id: callId } }))![0]!;

    beforeAll(async () => {
      ({ store, close } = await open());
      await store.calls.writeCalls([
        start('c1', 3),
        start('c2', 1, { opName: 'judge' }),
        start('c3', 2, { opName: 'judge' }),
        start('gone', 4),
        {
          kind: 'end',
          projectId: P,
          id: 'c1',
          endedAt: T0 + 5 * SECOND,
          exception: null,
          outputJson: null,
          summaryJson: '{}',
          outputRefs: [],
          wbRunStepEnd: null,
        },
        start('elsewhere', 1, { projectId: 'acme/other' }),
      ]);
      await store.calls.deleteCalls({ projectId: P, ids: ['gone'], deletedAt: T0 });
      await queue('q1', 'Errors to review', 1);
      await queue('q2', 'tone CHECK', 2);
      await queue('q3', 'other', 2, ['inputs.prompt', 'output']);
    });
    afterAll(() => close());

    it('lists live queues newest first, ties by id, filtered by a case-insensitive substring', async () => {
      const names = async (q: Partial<Parameters<Store['annotationQueues']['queryQueues']>[0]> = {}) => {
        const out: string[] = [];
        for await (const r of store.annotationQueues.queryQueues({ projectId: P, sortBy: [], ...q })) out.push(r.id);
        return out;
      };
      expect(await names()).toEqual(['q2', 'q3', 'q1']);
      expect(await names({ name: 'CHEck' })).toEqual(['q2']);
      expect(await names({ name: '%' })).toEqual([]);
      expect(await names({ sortBy: [{ field: 'name', direction: 'asc' }], limit: 2, offset: 1 })).toEqual(['q3', 'q2']);
      expect(await names({ projectId: 'acme/other' })).toEqual([]);
    });

    it('reads and updates only the given fields', async () => {
      expect(await store.annotationQueues.readQueue({ projectId: P, queueId: 'q3' })).toMatchObject({
        name: 'other',
        deletedAt: null,
        createdBy: 'alice',
      });
      const updated = await store.annotationQueues.updateQueue({
        projectId: P,
        queueId: 'q3',
        description: 'about tone',
        updatedAt: T0 + 9,
      });
      expect(updated).toMatchObject({ name: 'other', description: 'about tone', updatedAt: T0 + 9, createdAt: T0 + 2 });
      expect(await store.annotationQueues.updateQueue({ projectId: 'acme/other', queueId: 'q3', name: 'x', updatedAt: T0 })).toBeNull();
    });

    it('keeps the display fields chosen for a queue, null when none were', async () => {
      expect(await store.annotationQueues.readQueue({ projectId: P, queueId: 'q1' })).toMatchObject({ displayFields: null });
      expect(await store.annotationQueues.readQueue({ projectId: P, queueId: 'q3' })).toMatchObject({
        displayFields: ['inputs.prompt', 'output'],
      });
      // Left alone by an update that does not name them, replaced by one that does.
      expect(await store.annotationQueues.updateQueue({ projectId: P, queueId: 'q3', name: 'other', updatedAt: T0 + 10 })).toMatchObject({
        displayFields: ['inputs.prompt', 'output'],
      });
      const updated = await store.annotationQueues.updateQueue({
        projectId: P,
        queueId: 'q3',
        displayFields: ['inputs.q'],
        updatedAt: T0 + 11,
      });
      expect(updated).toMatchObject({ displayFields: ['inputs.q'] });
      const listed: (string[] | null)[] = [];
      for await (const q of store.annotationQueues.queryQueues({ projectId: P, sortBy: [{ field: 'name', direction: 'asc' }] }))
        listed.push(q.displayFields);
      expect(listed).toEqual([null, ['inputs.q'], null]);
    });

    it('adds each found call once, copying its fields, and counts calls already queued', async () => {
      const res = await store.annotationQueues.addCalls({
        projectId: P,
        queueId: 'q1',
        callIds: ['c1', 'c2', 'c1', 'nope', 'gone', 'elsewhere'],
        displayFields: ['inputs.x'],
        addedBy: 'alice',
        createdAt: T0,
      });
      expect(res).toEqual({ added: 2, duplicates: 0 });
      expect(
        await store.annotationQueues.addCalls({
          projectId: P,
          queueId: 'q1',
          callIds: ['c2', 'c3', 'c1'],
          displayFields: [],
          addedBy: 'bob',
          createdAt: T0 + 1,
        }),
      ).toEqual({ added: 1, duplicates: 2 });
      const [first] = (await items('q1'))!;
      expect(first).toMatchObject({
        callId: 'c1',
        callStartedAt: T0 + 3 * SECOND,
        callEndedAt: T0 + 5 * SECOND,
        callOpName: 'op-c1',
        callTraceId: 'tr-c1',
        displayFields: ['inputs.x'],
        addedBy: 'alice',
        createdBy: 'alice',
        annotationState: 'unstarted',
        annotatorUserId: null,
        positionInQueue: null,
      });
      expect(await itemIds('q1')).toEqual(['c1', 'c2', 'c3']);
    });

    it('filters, sorts and numbers items, positions counted before the state filter and paging', async () => {
      expect(await itemIds('q1', { filter: { call_op_name: 'judge' } })).toEqual(['c2', 'c3']);
      expect(await itemIds('q1', { filter: { added_by: 'bob' } })).toEqual(['c3']);
      expect(await itemIds('q1', { sortBy: [{ field: 'call_started_at', direction: 'desc' }] })).toEqual(['c1', 'c3', 'c2']);
      const c3 = await itemOf('q1', 'c3');
      await progress('q1', c3.id, 'alice', to('completed'));
      const sorted = { sortBy: [{ field: 'call_started_at' as const, direction: 'asc' as const }], includePosition: true };
      const page = (await items('q1', { ...sorted, filter: { annotation_states: ['unstarted'] }, limit: 1, offset: 1 }))!;
      expect(page.map((i) => [i.callId, i.positionInQueue])).toEqual([['c1', 3]]);
      expect((await items('q1', { ...sorted, filter: { annotation_states: ['completed'] } }))!.map((i) => i.positionInQueue)).toEqual([2]);
    });

    it('applies the outcome the change states for the current record, and writes nothing when it keeps', async () => {
      const c2 = await itemOf('q1', 'c2');
      const stepwise: ProgressChange = {
        none: { write: 'in_progress' },
        in_progress: { write: 'completed' },
        completed: { refuse: 'no going back' },
        skipped: { keep: true },
      };
      expect(await progress('q1', c2.id, 'alice', stepwise)).toEqual({ written: 'in_progress' });
      expect(await itemOf('q1', 'c2')).toMatchObject({ annotationState: 'in_progress', annotatorUserId: 'alice' });
      expect(await progress('q1', c2.id, 'alice', every({ keep: true }), T0 + 7)).toEqual({ written: null });
      expect(await store.annotationQueues.queueProgress({ projectId: P, queueId: 'q1' })).toContainEqual(
        expect.objectContaining({ itemId: c2.id, annotator: 'alice', state: 'in_progress' }),
      );
      expect(await progress('q1', c2.id, 'alice', stepwise)).toEqual({ written: 'completed' });
      await expect(progress('q1', c2.id, 'alice', stepwise)).rejects.toMatchObject({ status: 400, message: 'no going back' });
      expect(await itemOf('q1', 'c2')).toMatchObject({ annotationState: 'completed' });
      expect(await store.feedback.queryFeedback({ projectId: P, fields: ['id'] })).toEqual([]);
    });

    it('takes the aggregated state from the latest record, even within one microsecond', async () => {
      const c1 = await itemOf('q1', 'c1');
      await progress('q1', c1.id, 'alice', to('in_progress'), T0);
      await progress('q1', c1.id, 'bob', to('skipped'), T0);
      expect(await itemOf('q1', 'c1')).toMatchObject({ annotationState: 'skipped', annotatorUserId: 'bob' });
      await progress('q1', c1.id, 'alice', to('completed'), T0);
      expect(await itemOf('q1', 'c1')).toMatchObject({ annotationState: 'completed', annotatorUserId: 'alice' });
    });

    it('writes feedback in the batch of the progress, and neither when the change refuses', async () => {
      await store.annotationQueues.addCalls({
        projectId: P,
        queueId: 'q2',
        callIds: ['c1', 'c2'],
        displayFields: [],
        addedBy: 'alice',
        createdAt: T0,
      });
      const [a, b] = (await items('q2'))!;
      await expect(submit(store, 'q2', a!.id, 'alice', every({ refuse: 'no' }), [feedback('f-refused')])).rejects.toThrow('no');
      expect(await itemOf('q2', a!.callId)).toMatchObject({ annotationState: 'unstarted' });
      expect(await submit(store, 'q2', b!.id, 'alice', to('completed'), [feedback('f-kept')])).toEqual([
        { written: 'completed' },
        undefined,
      ]);
      expect(await store.feedback.queryFeedback({ projectId: P, fields: ['id', 'queue_id'] })).toEqual([{ id: 'f-kept', queue_id: 'q1' }]);
    });

    it('refuses (404) an item of another queue or an unknown item, with its batch', async () => {
      const c1 = await itemOf('q1', 'c1');
      // As a QueueItemNotFoundError: the progress endpoint answers that one with the reference's 400.
      await expect(progress('q2', c1.id, 'alice', to('completed'))).rejects.toBeInstanceOf(QueueItemNotFoundError);
      await expect(progress('q1', 'nope', 'alice', to('completed'))).rejects.toBeInstanceOf(QueueItemNotFoundError);
      await expect(progress('q1', 'nope', 'alice', to('completed'))).rejects.toMatchObject({ status: 404 });
      await expect(submit(store, 'q1', 'nope', 'alice', to('completed'), [feedback('f-orphan')])).rejects.toMatchObject({ status: 404 });
      expect((await store.feedback.queryFeedback({ projectId: P, fields: ['id'] })).map((r) => r.id)).toEqual(['f-kept']);
    });

    it('counts all items, those completed or skipped by anyone, and those reviewed, for live queues only', async () => {
      const stats = await store.annotationQueues.queueStats({ projectId: P, queueIds: ['q1', 'q2', 'q3', 'nope'] });
      expect(Object.fromEntries(stats)).toEqual({
        q1: { total: 3, completed: 3, reviewed: 3 },
        q2: { total: 2, completed: 1, reviewed: 1 },
        q3: { total: 0, completed: 0, reviewed: 0 },
      });
    });

    it('hides a deleted queue and everything under it', async () => {
      const c1 = await itemOf('q2', 'c1');
      const deleted = await store.annotationQueues.deleteQueue({ projectId: P, queueId: 'q2', deletedAt: T0 + 50 });
      expect(deleted).toMatchObject({ id: 'q2', deletedAt: T0 + 50, updatedAt: T0 + 50 });
      const q = { projectId: P, queueId: 'q2' };
      expect(await store.annotationQueues.readQueue(q)).toBeNull();
      expect(await store.annotationQueues.deleteQueue({ ...q, deletedAt: T0 })).toBeNull();
      expect(await store.annotationQueues.updateQueue({ ...q, name: 'x', updatedAt: T0 })).toBeNull();
      expect(await store.annotationQueues.addCalls({ ...q, callIds: ['c3'], displayFields: [], addedBy: 'a', createdAt: T0 })).toBeNull();
      expect(await items('q2')).toBeNull();
      await expect(progress('q2', c1.id, 'alice', to('completed'))).rejects.toMatchObject({ status: 404 });
      expect((await store.annotationQueues.queueStats({ projectId: P, queueIds: ['q2'] })).size).toBe(0);
    });
  });

  describe('AnnotationQueuesStore threads and reservations', () => {
    let store: Store;
    let close: () => Promise<void>;
    const Q = { projectId: P, queueId: 'qt' };
    beforeAll(async () => {
      ({ store, close } = await open());
      await store.calls.writeCalls([
        start('turn-late', 2, { threadId: 't1', turnId: 'turn-late' }),
        start('turn-early', 1, { threadId: 't1', turnId: 'turn-early' }),
        start('inner', 0, { threadId: 't1', turnId: 'turn-early', parentId: 'turn-early' }),
        start('root', 3, { threadId: 't2' }),
        start('child', 1, { threadId: 't2', parentId: 'root' }),
      ]);
      await store.annotationQueues.createQueue({
        ...Q,
        id: 'qt',
        name: 'threads',
        description: '',
        scorerRefs: [],
        displayFields: null,
        reviewersPerItem: 1,
        createdBy: 'alice',
        createdAt: T0,
        updatedAt: T0,
      });
    });
    afterAll(() => close());

    it('adds a thread as one item on its first turn (else its earliest root), repeats counted as duplicates', async () => {
      const add = (threadIds: string[]) =>
        store.annotationQueues.addThreads({ ...Q, threadIds, displayFields: [], addedBy: 'alice', createdAt: T0 });
      expect(await add(['t1', 't2', 'nope', 't1'])).toEqual({ added: 2, duplicates: 0 });
      expect(await add(['t1'])).toEqual({ added: 0, duplicates: 1 });
      const listed = (await store.annotationQueues.queryItems({ ...Q, sortBy: [], includePosition: false }))!;
      expect(listed.map((i) => [i.callId, i.threadId])).toEqual([
        ['turn-early', 't1'],
        ['root', 't2'],
      ]);
    });

    it('reserves the next item per reviewer, releases it on completion, and lets an expired hold go', async () => {
      // Real times: an item read shows holds unexpired at the wall clock.
      const NOW = Date.now() * 1000;
      const next = (annotator: string, now = NOW) =>
        store.annotationQueues.reserveNext({ ...Q, annotator, now, expiresAt: now + 60 * SECOND });
      const alice = await next('alice');
      expect(alice).toMatchObject({ item: { callId: 'turn-early', reservedBy: 'alice', positionInQueue: 1 }, available: 2 });
      // Asking again resumes the held item; bob is given the other one.
      expect((await next('alice'))!.item!.callId).toBe('turn-early');
      expect(await next('bob')).toMatchObject({ item: { callId: 'root', reservedBy: 'bob' }, available: 1 });
      expect((await next('carol'))!.item).toBeNull();
      await store.annotationQueues.recordProgress({ ...Q, itemId: alice!.item!.id, annotator: 'alice', change: to('completed'), now: NOW });
      expect((await store.annotationQueues.queueReservations({ ...Q, now: NOW })).map((r) => [r.annotator, r.expiresAt])).toEqual([
        ['bob', NOW + 60 * SECOND],
      ]);
      // After bob's hold expires, carol gets the item; alice, who finished hers, gets nothing.
      const later = NOW + 61 * SECOND;
      expect((await next('carol', later))!.item).toMatchObject({ callId: 'root', reservedBy: 'carol' });
      expect((await next('alice', later))!.item).toBeNull();
      expect((await store.annotationQueues.queueReservations({ ...Q, now: later })).map((r) => r.annotator)).toEqual(['carol']);
    });
  });

  describe('AnnotationQueuesStore concurrent progress (two processes)', () => {
    let a: Store;
    let b: Store;
    let close: () => Promise<void>;
    const itemIdOf = async (s: Store, callId: string) =>
      (await s.annotationQueues.queryItems({
        projectId: P,
        queueId: 'q1',
        filter: { call_id: callId },
        sortBy: [],
        includePosition: false,
      }))![0]!;
    const submitFrom = (s: Store, itemId: string, annotator: string, change: ProgressChange, fb: FeedbackWrite[]) =>
      s.apply([
        { kind: 'queues.progress', progress: { projectId: P, queueId: 'q1', itemId, annotator, change, now: T0 } },
        { kind: 'feedback.create', rows: fb },
      ]);

    beforeAll(async () => {
      ({ a, b, close } = await openPair());
      await a.calls.writeCalls([start('c1', 1), start('c2', 2)]);
      await a.annotationQueues.createQueue({
        projectId: P,
        id: 'q1',
        name: 'race',
        description: '',
        scorerRefs: [],
        displayFields: null,
        reviewersPerItem: 2,
        createdBy: 'alice',
        createdAt: T0,
        updatedAt: T0,
      });
      await a.annotationQueues.addCalls({
        projectId: P,
        queueId: 'q1',
        callIds: ['c1', 'c2'],
        displayFields: [],
        addedBy: 'alice',
        createdAt: T0,
      });
    });
    afterAll(() => close());

    it('converges when one reviewer submits the same item from several places at once', async () => {
      const item = await itemIdOf(a, 'c1');
      const attempts = [a, b, a, b].map((s, i) =>
        submitFrom(s, item.id, 'alice', firstOnly('completed'), [{ ...feedback(`race-${i}`), weaveRef: `weave:///${P}/call/c1` }]),
      );
      const outcomes = await Promise.allSettled(attempts);
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [`race-${i}`] : []));
      // Every attempt either applied whole or was refused by the state check, never half.
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ status: 400, message: 'already completed' });
      expect(won.length).toBeGreaterThanOrEqual(1);
      // SQLite decides and writes in one transaction, so exactly one first submit wins; ClickHouse
      // has no row locks, so concurrent first submits may all pass (AnnotationQueuesStore.recordProgress).
      if (a.backend === 'sqlite') expect(won).toHaveLength(1);
      for (const s of [a, b]) {
        const records = (await s.annotationQueues.queueProgress({ projectId: P, queueId: 'q1' }))!.filter((r) => r.itemId === item.id);
        expect(records.map((r) => [r.annotator, r.state])).toEqual([['alice', 'completed']]);
        expect(await itemIdOf(s, 'c1')).toMatchObject({ annotationState: 'completed', annotatorUserId: 'alice', completedReviews: 1 });
        const stored = await s.feedback.queryFeedback({ projectId: P, fields: ['id'] });
        expect(stored.map((r) => r.id).sort()).toEqual(won.sort());
      }
      // A retry after the race is refused like any later submit, and changes nothing.
      await expect(submitFrom(b, item.id, 'alice', firstOnly('completed'), [feedback('late')])).rejects.toMatchObject({ status: 400 });
      expect((await a.feedback.queryFeedback({ projectId: P, fields: ['id'] })).length).toBe(won.length);
    });

    it("keeps every reviewer's record when two act at once, and the item shows the latest", async () => {
      const item = await itemIdOf(a, 'c2');
      await Promise.all([
        a.annotationQueues.recordProgress({
          projectId: P,
          queueId: 'q1',
          itemId: item.id,
          annotator: 'alice',
          change: to('completed'),
          now: T0,
        }),
        b.annotationQueues.recordProgress({
          projectId: P,
          queueId: 'q1',
          itemId: item.id,
          annotator: 'bob',
          change: to('skipped'),
          now: T0,
        }),
      ]);
      const views: unknown[] = [];
      for (const s of [a, b]) {
        const records = (await s.annotationQueues.queueProgress({ projectId: P, queueId: 'q1' }))!.filter((r) => r.itemId === item.id);
        expect(records.map((r) => [r.annotator, r.state]).sort()).toEqual([
          ['alice', 'completed'],
          ['bob', 'skipped'],
        ]);
        // The item shows a record with the latest update time (two writers racing on ClickHouse
        // can stamp the same time; then the backend breaks the tie, the same way for every reader).
        const newest = Math.max(...records.map((r) => r.updatedAt));
        const shown = await itemIdOf(s, 'c2');
        expect(records.filter((r) => r.updatedAt === newest).map((r) => [r.annotator, r.state])).toContainEqual([
          shown.annotatorUserId,
          shown.annotationState,
        ]);
        expect(shown.completedReviews).toBe(1);
        views.push([shown.annotatorUserId, shown.annotationState]);
        expect(Object.fromEntries(await s.annotationQueues.queueStats({ projectId: P, queueIds: ['q1'] }))).toEqual({
          // Two reviewers wanted: one completed review each (bob skipped c2) reviews neither item.
          q1: { total: 2, completed: 2, reviewed: 0 },
        });
      }
      expect(views[0]).toEqual(views[1]);
    });
  });
}
