/**
 * The reference's own tests of annotation queues, re-sent over HTTP as its Python client sends
 * them, for every backend: the first tests of tests/trace/test_client_annotation_queues.py
 * (public wandb/weave): create and read, the queue list (order, name filter, pages) and adding
 * calls (duplicates). Calls the reference makes with `@weave.op` are posted as /call/start and
 * /call/end. What differs or is not ported yet is in docs/reference/coverage.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { pyEndedCall, pyStartedCall, type PyJson } from '../../testing/pythonClient.js';
import { referenceHttp, type ReferenceHttp } from './referenceHttp.js';

export function describeReferenceQueuesConformance(backend: TestBackend): void {
  describe('reference tests: annotation queues', () => {
    let t: TestServer;
    let http: ReferenceHttp;
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv });
      http = referenceHttp(t);
    });
    afterAll(() => t.close());

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
  });
}
