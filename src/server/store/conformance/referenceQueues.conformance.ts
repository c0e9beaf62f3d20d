/**
 * The reference's own tests of annotation queues, re-sent over HTTP as its Python client sends
 * them, for every backend: tests/trace/test_client_annotation_queues.py (public wandb/weave):
 * create, read, update and delete, the queue list (order, name filter, pages), adding calls
 * (duplicates), stats, the item query (filters, sorts, pages, positions) and progress updates
 * (states and transitions). Calls the reference makes with `@weave.op` are posted as
 * /call/start and /call/end. What differs or is not ported is in docs/reference/coverage.md.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { pyEndedCall, pyStartedCall, type PyJson } from '../../testing/pythonClient.js';
import { referenceHttp } from './referenceHttp.js';

export function describeReferenceQueuesConformance(backend: TestBackend): void {
  describe('reference tests: annotation queues', () => {
    const t = useTestServer({ env: backend.serverEnv });
    const http = referenceHttp(t);

    let n = 0;
    /** `count` ended calls of one op, as `test_op(i)` makes them; their ids in order. */
    const calls = async (P: string, count: number, op = 'test_op') => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const id = `019a0000-0000-7000-8000-${String(++n).padStart(12, '0')}`;
        const started_at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
        await http.ok('/call/start', {
          start: pyStartedCall({ project_id: P, id, trace_id: id, op_name: `weave:///${P}/op/${op}:v1`, started_at, inputs: { x: i } }),
        });
        await http.ok('/call/end', { end: pyEndedCall({ project_id: P, id, ended_at: started_at, output: i * 2 }) });
        ids.push(id);
      }
      return ids;
    };
    const createQueue = async (P: string, over: Record<string, unknown> = {}) =>
      (
        await http.ok('/annotation_queues', {
          project_id: P,
          name: 'Test Queue',
          description: null,
          scorer_refs: ['weave:///entity/project/scorer/test:abc123'],
          wb_user_id: 'test_user',
          ...over,
        })
      ).id as string;
    const readQueue = async (P: string, id: string) =>
      (await http.okQuery('GET', `/annotation_queues/${id}`, { project_id: P })).queue as PyJson;
    const queues = async (P: string, over: Record<string, unknown> = {}) =>
      (await http.ok('/annotation_queues/query', {
        project_id: P,
        name: null,
        sort_by: null,
        limit: null,
        offset: null,
        ...over,
      })) as PyJson[];
    const addCalls = (P: string, queueId: string, callIds: string[]) =>
      http.ok(`/annotation_queues/${queueId}/items`, {
        project_id: P,
        queue_id: queueId,
        call_ids: callIds,
        display_fields: ['input.x', 'output'],
        wb_user_id: 'test_user',
      });

    it('test_annotation_queue_create_and_read (created_by aside): every field reads back', async () => {
      const P = http.project('aq');
      const id = await createQueue(P, { description: 'A test annotation queue', wb_user_id: 'test_user_123' });
      expect(id.length).toBeGreaterThan(0);
      expect(await readQueue(P, id)).toMatchObject({
        id,
        name: 'Test Queue',
        description: 'A test annotation queue',
        scorer_refs: ['weave:///entity/project/scorer/test:abc123'],
        deleted_at: null,
      });
    });

    it('test_annotation_queue_multiple_scorer_refs: all three refs read back', async () => {
      const P = http.project('aq');
      const refs = [
        'weave:///entity/project/scorer/accuracy:abc123',
        'weave:///entity/project/scorer/relevance:def456',
        'weave:///entity/project/scorer/safety:ghi789',
      ];
      const id = await createQueue(P, { name: 'Multi Scorer Queue', description: 'Queue with multiple scorers', scorer_refs: refs });
      const queue = await readQueue(P, id);
      expect(queue.scorer_refs).toHaveLength(3);
      expect(queue.scorer_refs).toEqual(expect.arrayContaining(refs));
    });

    it('test_annotation_queues_query_stream_all: newest first', async () => {
      const P = http.project('aq');
      for (let i = 0; i < 3; i++)
        await createQueue(P, {
          name: `Queue ${i}`,
          description: `Test queue number ${i}`,
          scorer_refs: [`weave:///entity/project/scorer/test${i}:hash${i}`],
        });
      const listed = await queues(P);
      expect(listed.length).toBeGreaterThanOrEqual(3);
      for (let i = 0; i + 1 < listed.length; i++) expect(listed[i].created_at >= listed[i + 1].created_at).toBe(true);
    });

    it('test_annotation_queues_query_stream_with_name_filter: a case-insensitive part of the name', async () => {
      const P = http.project('aq');
      await createQueue(P, { name: 'Error Review Queue', scorer_refs: ['weave:///entity/project/scorer/error:abc'] });
      await createQueue(P, { name: 'Quality Check Queue', scorer_refs: ['weave:///entity/project/scorer/quality:def'] });
      const names = (await queues(P, { name: 'error' })).map((q) => q.name);
      expect(names).toContain('Error Review Queue');
      expect(names).not.toContain('Quality Check Queue');
    });

    it('test_annotation_queues_query_stream_with_pagination: two pages of two, disjoint', async () => {
      const P = http.project('aq');
      for (let i = 0; i < 5; i++)
        await createQueue(P, { name: `Pagination Queue ${i}`, scorer_refs: [`weave:///entity/project/scorer/test${i}:hash`] });
      const page1 = await queues(P, { limit: 2, offset: 0 });
      const page2 = await queues(P, { limit: 2, offset: 2 });
      expect(page1).toHaveLength(2);
      expect(page2).toHaveLength(2);
      const ids1 = new Set(page1.map((q) => q.id));
      expect(page2.some((q) => ids1.has(q.id))).toBe(false);
    });

    it('test_annotation_queue_add_calls and test_annotation_queue_add_calls_batch: every call added', async () => {
      const P = http.project('aq');
      const three = await calls(P, 3);
      expect(await addCalls(P, await createQueue(P, { name: 'Add Calls Test Queue' }), three)).toEqual({ added_count: 3, duplicates: 0 });
      const twenty = await calls(P, 20, 'batch_op');
      expect(await addCalls(P, await createQueue(P, { name: 'Batch Test Queue' }), twenty)).toEqual({ added_count: 20, duplicates: 0 });
    });

    it('test_annotation_queue_add_calls_duplicate_prevention and _partial_duplicates: queued calls count as duplicates', async () => {
      const P = http.project('aq');
      const [one] = await calls(P, 1);
      const q1 = await createQueue(P, { name: 'Duplicate Test Queue' });
      expect(await addCalls(P, q1, [one!])).toEqual({ added_count: 1, duplicates: 0 });
      expect(await addCalls(P, q1, [one!])).toEqual({ added_count: 0, duplicates: 1 });

      const five = await calls(P, 5, 'partial_op');
      const q2 = await createQueue(P, { name: 'Partial Duplicate Queue' });
      expect(await addCalls(P, q2, five.slice(0, 3))).toEqual({ added_count: 3, duplicates: 0 });
      expect(await addCalls(P, q2, five)).toEqual({ added_count: 2, duplicates: 3 });
    });

    /** PUT with a body, as the client sends an update: compact JSON, no Content-Type. */
    const put = async (path: string, body: unknown) => {
      const res = await t.fetch(path, {
        method: 'PUT',
        body: new TextEncoder().encode(JSON.stringify(body)),
        headers: { authorization: t.alice.authHeader },
      });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as PyJson };
    };
    const update = (P: string, id: string, over: Record<string, unknown>) =>
      put(`/annotation_queues/${id}`, {
        project_id: P,
        queue_id: id,
        name: null,
        description: null,
        scorer_refs: null,
        wb_user_id: 'test_user_123',
        ...over,
      });
    const del = (P: string, id: string) =>
      t.fetch(`/annotation_queues/${id}?project_id=${encodeURIComponent(P)}`, {
        method: 'DELETE',
        headers: { authorization: t.alice.authHeader },
      });
    /** `create_queue_with_calls`: `count` calls of one op, a queue, the calls added. */
    const queueWithCalls = async (P: string, count: number, name: string, displayFields = ['input.x', 'output']) => {
      const callIds = await calls(P, count, name.replace(/\W/g, '_'));
      const queueId = await createQueue(P, { name, description: 'A test annotation queue' });
      await http.ok(`/annotation_queues/${queueId}/items`, {
        project_id: P,
        queue_id: queueId,
        call_ids: callIds,
        display_fields: displayFields,
        wb_user_id: 'test_user',
      });
      return { queueId, callIds };
    };
    const items = async (P: string, queueId: string, over: Record<string, unknown> = {}) =>
      (
        await http.ok(`/annotation_queues/${queueId}/items/query`, {
          project_id: P,
          queue_id: queueId,
          filter: null,
          sort_by: null,
          limit: null,
          offset: null,
          include_position: false,
          ...over,
        })
      ).items as PyJson[];
    const progress = (P: string, queueId: string, itemId: string, state: string) =>
      http.post(`/annotation_queues/${queueId}/items/${itemId}/progress`, {
        project_id: P,
        queue_id: queueId,
        item_id: itemId,
        annotation_state: state,
        wb_user_id: 'test_annotator',
      });
    const setState = async (P: string, queueId: string, itemId: string, state: string) => {
      const res = await progress(P, queueId, itemId, state);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.item as PyJson;
    };
    const stats = async (P: string, queueIds: string[]) =>
      (await http.ok('/annotation_queues/stats', { project_id: P, queue_ids: queueIds })).stats as PyJson[];
    const descending = (list: PyJson[], key: string) => {
      for (let i = 0; i + 1 < list.length; i++) expect(list[i][key] >= list[i + 1][key]).toBe(true);
    };

    describe('update, read and delete', () => {
      it('test_annotation_queue_update_all_fields: the answer and a read carry every new field', async () => {
        const P = http.project('aq');
        const id = await createQueue(P, { name: 'Original Queue', description: 'Original description' });
        const refs = ['weave:///entity/project/scorer/new1:def456', 'weave:///entity/project/scorer/new2:ghi789'];
        const res = await update(P, id, { name: 'Updated Queue', description: 'Updated description', scorer_refs: refs });
        expect(res.status).toBe(200);
        expect(res.body.queue).toMatchObject({ id, name: 'Updated Queue', description: 'Updated description', deleted_at: null });
        expect([...res.body.queue.scorer_refs].sort()).toEqual(refs);
        expect(await readQueue(P, id)).toMatchObject({ name: 'Updated Queue', description: 'Updated description', scorer_refs: refs });
      });

      it('test_annotation_queue_update_partial and _no_fields: fields given as null keep their values', async () => {
        const P = http.project('aq');
        const id = await createQueue(P, { name: 'Original Queue', description: 'Original description' });
        const renamed = await update(P, id, { name: 'New Name Only' });
        expect(renamed.body.queue).toMatchObject({
          name: 'New Name Only',
          description: 'Original description',
          scorer_refs: ['weave:///entity/project/scorer/test:abc123'],
        });
        const same = await update(P, id, {});
        expect(same.status).toBe(200);
        expect(same.body.queue).toMatchObject({ id, name: 'New Name Only', description: 'Original description' });
      });

      it('test_annotation_queue_update_nonexistent and test_annotation_queue_read_nonexistent: 404', async () => {
        const P = http.project('aq');
        const missing = '00000000-0000-0000-0000-000000000000';
        expect((await update(P, missing, { name: 'New Name' })).status).toBe(404);
        const read = await t.fetch(`/annotation_queues/${missing}?project_id=${encodeURIComponent(P)}`, {
          headers: { authorization: t.alice.authHeader },
        });
        expect(read.status).toBe(404);
        expect(await read.text()).toContain(`Queue ${missing} not found`);
      });

      it('test_annotation_queue_delete_basic: the deleted queue is answered, then reads and deletes 404', async () => {
        const P = http.project('aq');
        const id = await createQueue(P, { name: 'Delete Test Queue', description: 'Queue to be deleted' });
        const before = await readQueue(P, id);
        expect(before.deleted_at).toBeNull();
        const res = await del(P, id);
        expect(res.status).toBe(200);
        const { queue } = (await res.json()) as PyJson;
        expect(queue).toMatchObject({ id, name: 'Delete Test Queue', description: 'Queue to be deleted', created_at: before.created_at });
        expect(Number.isNaN(Date.parse(queue.deleted_at))).toBe(false);
        expect(Number.isNaN(Date.parse(queue.updated_at))).toBe(false);
        const read = await t.fetch(`/annotation_queues/${id}?project_id=${encodeURIComponent(P)}`, {
          headers: { authorization: t.alice.authHeader },
        });
        expect(read.status).toBe(404);
        expect(await read.text()).toContain(`Queue ${id} not found`);
        expect((await del(P, id)).status).toBe(404);
      });

      it('test_annotation_queue_delete_not_in_query and _nonexistent: gone from the list; an unknown queue 404', async () => {
        const P = http.project('aq');
        const q1 = await createQueue(P, { name: 'Queue 1' });
        const q2 = await createQueue(P, { name: 'Queue 2' });
        expect((await queues(P)).map((q) => q.id).sort()).toEqual([q1, q2].sort());
        expect((await del(P, q1)).status).toBe(200);
        expect((await queues(P)).map((q) => q.id)).toEqual([q2]);
        expect((await del(P, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
      });
    });

    describe('stats', () => {
      it('test_annotation_queues_stats: total and completed (skipped counts as completed) per queue', async () => {
        const P = http.project('aq');
        const ten = await calls(P, 10, 'stats_test_op');
        const ids: string[] = [];
        for (const [i, n] of [3, 5, 7].entries()) {
          const id = await createQueue(P, { name: `Stats Test Queue ${i}` });
          expect((await addCalls(P, id, ten.slice(0, n))).added_count).toBe(n);
          ids.push(id);
        }
        // The reference writes progress rows straight into ClickHouse; here the progress API does.
        const plan: Record<number, string[]> = {
          0: ['completed', 'completed'],
          1: ['completed', 'completed', 'completed', 'skipped'],
          2: ['skipped', 'skipped', 'skipped', 'skipped'],
        };
        for (const [q, states] of Object.entries(plan)) {
          const queueItems = await items(P, ids[Number(q)]!);
          for (const [i, state] of states.entries()) await setState(P, ids[Number(q)]!, queueItems[i].id, state);
        }
        const byId = new Map((await stats(P, ids)).map((s) => [s.queue_id, s]));
        expect(byId.size).toBe(3);
        expect(byId.get(ids[0]!)).toMatchObject({ total_items: 3, completed_items: 2 });
        expect(byId.get(ids[1]!)).toMatchObject({ total_items: 5, completed_items: 4 });
        expect(byId.get(ids[2]!)).toMatchObject({ total_items: 7, completed_items: 4 });
      });

      it('test_annotation_queues_stats_empty_queues and _no_queue_ids: zeros, and no entries for no ids', async () => {
        const P = http.project('aq');
        const ids = [await createQueue(P, { name: 'Empty Stats Queue 0' }), await createQueue(P, { name: 'Empty Stats Queue 1' })];
        const got = await stats(P, ids);
        expect(got).toHaveLength(2);
        for (const s of got) expect(s).toMatchObject({ total_items: 0, completed_items: 0 });
        expect(await stats(P, [])).toEqual([]);
      });
    });

    describe('items query', () => {
      it('test_annotation_queue_items_query_basic: every item with its queue, call and display fields', async () => {
        const P = http.project('aq');
        const { queueId, callIds } = await queueWithCalls(P, 5, 'Items Query Test Queue');
        const got = await items(P, queueId);
        expect(got).toHaveLength(5);
        for (const item of got) {
          expect(item.id).toBeTruthy();
          expect(item).toMatchObject({ queue_id: queueId, display_fields: ['input.x', 'output'], deleted_at: null });
          expect(callIds).toContain(item.call_id);
        }
      });

      it('test_annotation_queue_items_query_with_pagination and _empty_queue: disjoint pages; no items', async () => {
        const P = http.project('aq');
        const { queueId } = await queueWithCalls(P, 10, 'Items Pagination Queue');
        const page1 = await items(P, queueId, { limit: 3, offset: 0 });
        const page2 = await items(P, queueId, { limit: 3, offset: 3 });
        expect(page1).toHaveLength(3);
        expect(page2).toHaveLength(3);
        const ids1 = new Set(page1.map((i) => i.id));
        expect(page2.some((i) => ids1.has(i.id))).toBe(false);
        expect(await items(P, await createQueue(P, { name: 'Empty Items Queue' }))).toEqual([]);
      });

      it('test_annotation_queue_items_query_with_sorting and _with_multiple_sort_fields', async () => {
        const P = http.project('aq');
        const { queueId } = await queueWithCalls(P, 3, 'Items Sorting Queue', ['input.x']);
        const byCreated = await items(P, queueId);
        for (let i = 0; i + 1 < byCreated.length; i++) expect(byCreated[i].created_at <= byCreated[i + 1].created_at).toBe(true);
        descending(await items(P, queueId, { sort_by: [{ field: 'call_started_at', direction: 'desc' }] }), 'call_started_at');

        const multi = await queueWithCalls(P, 5, 'Multi Sort Queue');
        const sorted = await items(P, multi.queueId, {
          sort_by: [
            { field: 'call_op_name', direction: 'asc' },
            { field: 'created_at', direction: 'desc' },
          ],
        });
        expect(sorted).toHaveLength(5);
      });

      it('test_annotation_queue_items_query_filter_by_call_id, _call_op_name, _call_trace_id, _empty_results', async () => {
        const P = http.project('aq');
        const a = await queueWithCalls(P, 5, 'Filter Op Name Queue A');
        await queueWithCalls(P, 2, 'Filter Op Name Queue B');
        const target = a.callIds[2]!;
        expect((await items(P, a.queueId, { filter: { call_id: target } })).map((i) => i.call_id)).toEqual([target]);

        const [first] = await items(P, a.queueId, { filter: { call_id: a.callIds[0] } });
        const byOp = await items(P, a.queueId, { filter: { call_op_name: first.call_op_name } });
        expect(byOp).toHaveLength(5);
        for (const item of byOp) expect(item.call_op_name).toBe(first.call_op_name);

        const byTrace = await items(P, a.queueId, { filter: { call_trace_id: first.call_trace_id } });
        expect(byTrace.length).toBeGreaterThanOrEqual(1);
        for (const item of byTrace) expect(item.call_trace_id).toBe(first.call_trace_id);

        expect(await items(P, a.queueId, { filter: { call_id: 'nonexistent_call_id' } })).toEqual([]);
        expect(await items(P, a.queueId, { filter: { call_op_name: 'NonexistentOp' } })).toEqual([]);
      });

      it('test_annotation_queue_items_query_filter_by_added_by (the adder is the caller): all, or none for another user', async () => {
        const P = http.project('aq');
        const { queueId } = await queueWithCalls(P, 5, 'Filter By Added By Queue');
        const [one] = await items(P, queueId, { limit: 1 });
        const mine = await items(P, queueId, { filter: { added_by: one.added_by } });
        expect(mine).toHaveLength(5);
        expect(await items(P, queueId, { filter: { added_by: 'nonexistent_user' } })).toEqual([]);
      });

      it('test_annotation_queue_items_query_filter_by_annotation_states and _filter_combined', async () => {
        const P = http.project('aq');
        const { queueId, callIds } = await queueWithCalls(P, 5, 'Filter By States Queue');
        const unstarted = await items(P, queueId, { filter: { annotation_states: ['unstarted'] } });
        expect(unstarted).toHaveLength(5);
        for (const item of unstarted) expect(item.annotation_state).toBe('unstarted');
        expect(await items(P, queueId, { filter: { annotation_states: ['completed'] } })).toEqual([]);

        const one = await items(P, queueId, {
          filter: { call_id: callIds[0], added_by: unstarted[0].added_by, annotation_states: ['unstarted'] },
        });
        expect(one).toHaveLength(1);
        expect(one[0]).toMatchObject({ call_id: callIds[0], annotation_state: 'unstarted' });
        expect(await items(P, queueId, { filter: { call_id: callIds[0], annotation_states: ['completed'] } })).toEqual([]);
      });

      it('test_annotation_queue_items_query_filter_with_pagination and _filter_with_sorting', async () => {
        const P = http.project('aq');
        const { queueId } = await queueWithCalls(P, 10, 'Filter With Pagination Queue');
        const filter = { annotation_states: ['unstarted'] };
        const page1 = await items(P, queueId, { filter, limit: 3, offset: 0 });
        const page2 = await items(P, queueId, { filter, limit: 3, offset: 3 });
        expect(page1).toHaveLength(3);
        expect(page2).toHaveLength(3);
        const ids1 = new Set(page1.map((i) => i.id));
        expect(page2.some((i) => ids1.has(i.id))).toBe(false);

        const sorted = await items(P, queueId, {
          filter: { added_by: page1[0].added_by, annotation_states: ['unstarted'] },
          sort_by: [{ field: 'call_started_at', direction: 'desc' }],
        });
        expect(sorted).toHaveLength(10);
        descending(sorted, 'call_started_at');
      });

      it('test_annotation_queue_items_query_with_position_basic, _without_position, _position_with_sorting, _position_with_filter_unstarted', async () => {
        const P = http.project('aq');
        const { queueId } = await queueWithCalls(P, 5, 'Position Basic Queue');
        expect((await items(P, queueId, { include_position: true })).map((i) => i.position_in_queue)).toEqual([1, 2, 3, 4, 5]);
        for (const item of await items(P, queueId)) expect(item.position_in_queue ?? null).toBeNull();
        const desc = await items(P, queueId, { sort_by: [{ field: 'call_started_at', direction: 'desc' }], include_position: true });
        expect(desc.map((i) => i.position_in_queue)).toEqual([1, 2, 3, 4, 5]);
        descending(desc, 'call_started_at');
        const filtered = await items(P, queueId, { filter: { annotation_states: ['unstarted'] }, include_position: true });
        expect(filtered.map((i) => i.position_in_queue).sort()).toEqual([1, 2, 3, 4, 5]);
      });
    });

    describe('progress updates', () => {
      /** One queue of `count` items; their ids in query order. */
      const queueItems = async (P: string, count: number, name: string) => {
        const { queueId } = await queueWithCalls(P, count, name);
        return { queueId, itemIds: (await items(P, queueId)).map((i) => i.id as string) };
      };

      it('test_annotator_queue_items_progress_update_completed and _skipped: the item answered and stored with its state', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 1, 'Progress Update Completed Queue');
        const [before] = await items(P, queueId);
        expect(before.annotation_state).toBe('unstarted');
        const done = await setState(P, queueId, itemIds[0]!, 'completed');
        expect(done).toMatchObject({ id: itemIds[0], annotation_state: 'completed' });
        const [after] = await items(P, queueId);
        expect(after.annotation_state).toBe('completed');
        expect(after.annotator_user_id).toBe(done.annotator_user_id);

        const skipped = await queueItems(P, 1, 'Progress Update Skipped Queue');
        expect(await setState(P, skipped.queueId, skipped.itemIds[0]!, 'skipped')).toMatchObject({
          id: skipped.itemIds[0],
          annotation_state: 'skipped',
        });
      });

      it('test_annotator_queue_items_progress_update_invalid_state and _nonexistent_item: 400 naming the problem', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 1, 'Invalid State Queue');
        const invalid = await progress(P, queueId, itemIds[0]!, 'invalid_state');
        expect(invalid.status).toBe(400);
        expect(JSON.stringify(invalid.body)).toContain('Invalid annotation_state');
        const empty = await createQueue(P, { name: 'Nonexistent Item Queue' });
        const missing = await progress(P, empty, 'nonexistent_item_id', 'completed');
        expect(missing.status).toBe(400);
        expect(JSON.stringify(missing.body)).toMatch(/Queue item .* not found/);
      });

      it('test_annotator_queue_items_progress_update_transition_from_in_progress and _in_progress_to_completed', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 1, 'Transition From In Progress Queue');
        expect((await setState(P, queueId, itemIds[0]!, 'in_progress')).annotation_state).toBe('in_progress');
        expect((await items(P, queueId))[0].annotation_state).toBe('in_progress');
        expect((await setState(P, queueId, itemIds[0]!, 'completed')).annotation_state).toBe('completed');
        expect((await items(P, queueId))[0].annotation_state).toBe('completed');
      });

      it('test_annotator_queue_items_progress_update_invalid_transition_from_completed and _in_progress_from_completed', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 1, 'Invalid Transition Queue');
        await setState(P, queueId, itemIds[0]!, 'completed');
        const toSkipped = await progress(P, queueId, itemIds[0]!, 'skipped');
        expect(toSkipped.status).toBe(400);
        expect(JSON.stringify(toSkipped.body)).toContain('Invalid state transition');
        const toInProgress = await progress(P, queueId, itemIds[0]!, 'in_progress');
        expect(toInProgress.status).toBe(400);
        expect(JSON.stringify(toInProgress.body)).toContain("Cannot transition to 'in_progress' when a record already exists");
      });

      it('test_annotator_queue_items_progress_update_idempotent[completed|skipped] and _in_progress_existing: the same state twice', async () => {
        const P = http.project('aq');
        for (const state of ['completed', 'skipped', 'in_progress']) {
          const { queueId, itemIds } = await queueItems(P, 1, `State Idempotency Test Queue ${state}`);
          expect((await setState(P, queueId, itemIds[0]!, state)).annotation_state).toBe(state);
          expect((await setState(P, queueId, itemIds[0]!, state)).annotation_state).toBe(state);
        }
      });

      it('test_annotator_queue_items_progress_update_stats_integration: 2 completed and 1 skipped count 3', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 5, 'Stats Integration Queue');
        expect(await stats(P, [queueId])).toEqual([{ queue_id: queueId, total_items: 5, completed_items: 0, reviewed_items: 0 }]);
        await setState(P, queueId, itemIds[0]!, 'completed');
        await setState(P, queueId, itemIds[1]!, 'completed');
        await setState(P, queueId, itemIds[2]!, 'skipped');
        expect(await stats(P, [queueId])).toEqual([{ queue_id: queueId, total_items: 5, completed_items: 3, reviewed_items: 2 }]);
      });

      it('test_annotator_queue_items_progress_in_progress_workflow and _returns_correct_item', async () => {
        const P = http.project('aq');
        const { queueId, itemIds } = await queueItems(P, 3, 'In Progress Workflow Queue');
        const [i1, i2, i3] = itemIds as [string, string, string];
        await setState(P, queueId, i1, 'in_progress');
        await setState(P, queueId, i1, 'completed');
        await setState(P, queueId, i2, 'in_progress');
        await setState(P, queueId, i2, 'skipped');
        await setState(P, queueId, i3, 'in_progress');
        const byId = new Map((await items(P, queueId)).map((i) => [i.id, i]));
        expect(byId.get(i1).annotation_state).toBe('completed');
        expect(byId.get(i2).annotation_state).toBe('skipped');
        expect(byId.get(i3).annotation_state).toBe('in_progress');
        const annotator = byId.get(i1).annotator_user_id;
        expect(annotator).toBeTruthy();
        for (const id of [i2, i3]) expect(byId.get(id).annotator_user_id).toBe(annotator);
        expect(await stats(P, [queueId])).toEqual([{ queue_id: queueId, total_items: 3, completed_items: 2, reviewed_items: 1 }]);

        const other = await queueItems(P, 3, 'Returns Correct Item Queue');
        expect((await setState(P, other.queueId, other.itemIds[2]!, 'completed')).id).toBe(other.itemIds[2]);
      });
    });
  });
}
