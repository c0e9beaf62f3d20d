/**
 * The differences clients.md §3 lists between Weft and the newest reference, each checked the
 * way the Python client talks: bodies with every optional field present and no Content-Type
 * (testing/pythonClient.ts).
 */
import { describe, expect, it } from 'vitest';
import { projectNames, useTestServer } from '../testing/serverSuite.js';
import {
  pyCallsQueryReq,
  pyCompletedCall,
  pyCostCreateInput,
  pyFeedbackQueryReq,
  pyObjCreateReq,
  pyPost,
} from '../testing/pythonClient.js';

const t = useTestServer();
const nextProject = projectNames('shapes');
const project = () => `alice-co/${nextProject()}`;
const eq = (field: string, value: unknown) => ({ $eq: [{ $getField: field }, { $literal: value }] });

/** Writes finished calls through the v2 "calls complete" route, as the Python client batches them. */
async function writeCalls(projectId: string, calls: Record<string, unknown>[]) {
  const [entity, name] = projectId.split('/');
  const res = await pyPost(t, `/v2/${entity}/${name}/calls/complete`, {
    batch: calls.map((c, i) => pyCompletedCall({ project_id: projectId, trace_id: `tr-${i}`, ...c })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('POST /calls/stream_query: $size', () => {
  it('filters on the length of a list, and lists nothing else', async () => {
    const P = project();
    await writeCalls(P, [
      { id: 'none', inputs: { tags: [] } },
      { id: 'two', inputs: { tags: ['a', 'b'] } },
      { id: 'three', inputs: { tags: ['a', 'b', 'c'] } },
      { id: 'text', inputs: { tags: 'abc' } },
    ]);
    const ids = async (op: unknown) => {
      const res = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, query: { $expr: op } }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { id: string }[]).map((c) => c.id).sort();
    };
    const size = { $size: { $getField: 'inputs.tags' } };
    expect(await ids({ $gte: [size, { $literal: 2 }] })).toEqual(['three', 'two']);
    expect(await ids({ $eq: [size, { $literal: 0 }] })).toEqual(['none']);
    // A string has no size: it matches no comparison, not even "size below 10".
    expect(await ids({ $lt: [size, { $literal: 10 }] })).toEqual(['none', 'three', 'two']);
  });
});

describe('POST /feedback/query: $size', () => {
  it('filters feedback on the length of a payload list', async () => {
    const P = project();
    for (const [i, tags] of [[], ['a'], ['a', 'b']].entries()) {
      await t.alice.client.feedbackCreate({
        project_id: P,
        weave_ref: `weave:///${P}/call/c${i}`,
        feedback_type: 'custom',
        payload: { tags },
      });
    }
    const query = { $expr: { $gte: [{ $size: { $getField: 'payload.tags' } }, { $literal: 1 }] } };
    const res = await pyPost(
      t,
      '/feedback/query',
      pyFeedbackQueryReq({ project_id: P, query, fields: ['weave_ref'], sort_by: [{ field: 'weave_ref', direction: 'asc' }] }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.map((r: { weave_ref: string }) => r.weave_ref.split('/').at(-1))).toEqual(['c1', 'c2']);
  });
});

describe('POST /calls/stream_query: include_usernames', () => {
  it("adds wb_username, the account behind each call's wb_user_id, and nothing without the flag", async () => {
    const P = project();
    await writeCalls(P, [{ id: 'c1' }]);
    const withNames = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, include_usernames: true }));
    expect(withNames.body).toEqual([expect.objectContaining({ id: 'c1', wb_user_id: 'alice', wb_username: 'alice' })]);
    // With `columns` that leave wb_user_id out, the username is still resolved.
    const narrow = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, include_usernames: true, columns: ['id'] }));
    expect(narrow.body[0].wb_username).toBe('alice');
    const without = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P }));
    expect(without.body[0]).not.toHaveProperty('wb_username');
  });
});

describe('unknown query fields', () => {
  it('answer 422 InvalidFieldError with a reason, the error type and a detail entry, for filters and sorts', async () => {
    const P = project();
    await writeCalls(P, [{ id: 'c1' }]);
    for (const req of [
      pyCallsQueryReq({ project_id: P, query: { $expr: eq('no_such_field', 1) } }),
      pyCallsQueryReq({ project_id: P, sort_by: [{ field: 'bogus', direction: 'asc' }] }),
    ]) {
      const res = await pyPost(t, '/calls/stream_query', req);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_type: 'InvalidFieldError', detail: [expect.objectContaining({ type: 'invalid_field' })] });
      expect(res.body.reason).toMatch(/Unknown call field "(no_such_field|bogus)"/);
    }
  });
});

describe('POST /feedback/query: total_count', () => {
  it('counts every matching row whatever the page', async () => {
    const P = project();
    for (let i = 0; i < 5; i++) {
      await t.alice.client.feedbackCreate({
        project_id: P,
        weave_ref: `weave:///${P}/call/c${i}`,
        feedback_type: i < 3 ? 'note' : 'reaction',
        payload: i < 3 ? { note: `n${i}` } : { emoji: '👍' },
      });
    }
    const page = await pyPost(t, '/feedback/query', pyFeedbackQueryReq({ project_id: P, limit: 2, offset: 1 }));
    expect(page.status).toBe(200);
    expect(page.body.result).toHaveLength(2);
    expect(page.body.total_count).toBe(5);
    const notes = await pyPost(
      t,
      '/feedback/query',
      pyFeedbackQueryReq({ project_id: P, limit: 1, query: { $expr: eq('feedback_type', 'note') } }),
    );
    expect(notes.body.total_count).toBe(3);
  });
});

describe('cache-token prices', () => {
  it('are stored by /cost/create, listed by /cost/query and priced in include_costs', async () => {
    const P = project();
    const created = await pyPost(t, '/cost/create', {
      project_id: P,
      costs: {
        cached: pyCostCreateInput({
          prompt_token_cost: 0.01,
          completion_token_cost: 0.02,
          cache_read_input_token_cost: 0.001,
          cache_creation_input_token_cost: 0.005,
          effective_date: '2025-01-01T00:00:00Z',
        }),
      },
      wb_user_id: null,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const listed = await pyPost(t, '/cost/query', { project_id: P, fields: null, query: null, sort_by: null, limit: null, offset: null });
    expect(listed.body.results).toEqual([
      expect.objectContaining({ llm_id: 'cached', cache_read_input_token_cost: 0.001, cache_creation_input_token_cost: 0.005 }),
    ]);

    const usage = {
      cached: { prompt_tokens: 100, completion_tokens: 10, cache_read_input_tokens: 60, cache_creation_input_tokens: 20, requests: 1 },
    };
    await writeCalls(P, [{ id: 'c1', summary: { usage } }]);
    const res = await pyPost(t, '/calls/stream_query', pyCallsQueryReq({ project_id: P, include_costs: true }));
    const cost = res.body[0].summary.weave.costs.cached;
    expect(cost).toMatchObject({
      prompt_tokens: 100,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 20,
      cache_read_input_token_cost: 0.001,
      cache_creation_input_token_cost: 0.005,
    });
    // Cached tokens leave the prompt price: (100 − 60 − 20) × 0.01, then 60 × 0.001 and 20 × 0.005.
    expect(cost.prompt_tokens_total_cost).toBeCloseTo(0.2, 12);
    expect(cost.completion_tokens_total_cost).toBeCloseTo(0.2, 12);
    expect(cost.cache_read_input_tokens_total_cost).toBeCloseTo(0.06, 12);
    expect(cost.cache_creation_input_tokens_total_cost).toBeCloseTo(0.1, 12);
  });

  it('default to 0 for prices created without them', async () => {
    const P = project();
    await t.alice.client.costCreate({ project_id: P, costs: { plain: { prompt_token_cost: 1, completion_token_cost: 2 } } });
    const { results } = await t.alice.client.costQuery({ project_id: P });
    expect(results[0]).toMatchObject({ cache_read_input_token_cost: 0, cache_creation_input_token_cost: 0 });
  });
});

describe('POST /obj/create: one base class per object id', () => {
  it('refuses a version of another class with 400 ObjectNameTypeCollision, and accepts the same class', async () => {
    const P = project();
    const create = (val: unknown, builtin: string | null = null) =>
      pyPost(t, '/obj/create', pyObjCreateReq({ project_id: P, object_id: 'thing', val, builtin_object_class: builtin }));
    const dataset = { _type: 'Dataset', _class_name: 'Dataset', _bases: ['Object', 'BaseModel'], name: 'thing', rows: [] };
    const model = { _type: 'Model', _class_name: 'Model', _bases: ['Object', 'BaseModel'], name: 'thing' };
    expect((await create(dataset)).status).toBe(200);
    expect((await create({ ...dataset, description: 'second version' })).status).toBe(200);
    const clash = await create(model);
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({
      reason:
        "Cannot publish 'thing' as a Model: that name is already used by a Dataset in this project. " +
        'Object versions cannot share types, publish this object under a different name.',
      error_type: 'ObjectNameTypeCollision',
      object_id: 'thing',
      kind: 'object',
      new_base_object_class: 'Model',
      existing_base_object_classes: ['Dataset'],
      object_name: null,
    });
    // An untyped value is a class of its own, too.
    expect((await create({ plain: true })).body.reason).toContain('as a generic (untyped) object: that name is already used by a Dataset');
    // Once every Dataset version is deleted, the name is free for another class.
    await t.alice.client.objDelete({ project_id: P, object_id: 'thing' });
    expect((await create(model)).status).toBe(200);
  });
});
