/**
 * The builtin classes Weft knows field by field (docs/api/core.md §2 "ObjSchema", builtin
 * classes): `Leaderboard` and `SavedView` written with `builtin_object_class` are stored as the
 * reference's `dump_base_object` stores them, and values that name the class are checked.
 */
import { describe, expect, it } from 'vitest';
import { valueDigest } from '../domain/objects/digests.js';
import { fromPlain } from '../domain/objects/losslessJson.js';
import { projectNames, sendAsAlice, useTestServer } from '../testing/serverSuite.js';

const t = useTestServer();
const project = projectNames('alice-co/builtin');
const send = sendAsAlice(t);
const post = (path: string, body: unknown) => send(path, { method: 'POST', body: JSON.stringify(body) });

const EVAL_REF = 'weave:///alice-co/builtin/object/qa-eval:0Vzm5ASrgD4MkN8TfJt2NlLpXu3Rv7kKcQ1iBwYyZoE';

describe('builtin Leaderboard', () => {
  it('stores the dump: fields in declaration order, defaults filled, columns stamped', async () => {
    const project_id = project();
    const val = {
      name: 'QA board',
      columns: [{ evaluation_object_ref: EVAL_REF, scorer_name: 'exact', summary_metric_path: 'correct.true_fraction' }],
    };
    const res = await post('/obj/create', { obj: { project_id, object_id: 'qa-board', val, builtin_object_class: 'Leaderboard' } });
    expect(res.status).toBe(200);
    const { obj } = await t.alice.client.objRead({ project_id, object_id: 'qa-board', digest: 'latest' });
    expect(obj).toMatchObject({ base_object_class: 'Leaderboard', leaf_object_class: 'Leaderboard' });
    expect(Object.keys(obj.val as object)).toEqual([
      '_type',
      'name',
      'description',
      'columns',
      'calls_query',
      'color_scheme',
      'grouping_by',
      'models_use_version_grouping',
      'models_show_version_indicator',
      'selected_models',
      'model_display_names',
      'datasets_use_version_grouping',
      'datasets_show_version_indicator',
      'selected_datasets',
      'dataset_display_names',
      'dataset_version_aggregation',
      'score_selection_strategy',
      'manual_version_selections',
      'metric_configs',
      '_class_name',
      '_bases',
    ]);
    expect(obj.val).toMatchObject({
      _type: 'Leaderboard',
      name: 'QA board',
      description: null,
      columns: [
        {
          _type: 'LeaderboardColumn',
          evaluation_object_ref: EVAL_REF,
          scorer_name: 'exact',
          summary_metric_path: 'correct.true_fraction',
          should_minimize: null,
          _class_name: 'LeaderboardColumn',
          _bases: ['BaseModel'],
        },
      ],
      metric_configs: null,
      _class_name: 'Leaderboard',
      _bases: ['BaseObject', 'BaseModel'],
    });
    expect(valueDigest(fromPlain(obj.val))).toBe(obj.digest);
  });

  it('answers 422 naming the field for a column without a scorer or a bad enum value', async () => {
    const project_id = project();
    const res = await post('/obj/create', {
      obj: {
        project_id,
        object_id: 'bad',
        val: { columns: [{ evaluation_object_ref: EVAL_REF, summary_metric_path: 'x' }], color_scheme: 'rainbow' },
        builtin_object_class: 'Leaderboard',
      },
    });
    expect(res.status).toBe(422);
    const detail = (res.body as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc);
    expect(detail).toEqual([
      ['val', 'columns', 0, 'scorer_name'],
      ['val', 'color_scheme'],
    ]);
  });

  it('checks a value that already names the class, and keeps it as sent', async () => {
    const project_id = project();
    const stamped = {
      _type: 'Leaderboard',
      name: 'sdk',
      description: null,
      columns: [
        {
          _type: 'LeaderboardColumn',
          evaluation_object_ref: EVAL_REF,
          scorer_name: 'exact',
          summary_metric_path: 'correct.true_fraction',
          should_minimize: false,
          _class_name: 'LeaderboardColumn',
          _bases: ['BaseModel'],
        },
      ],
      _class_name: 'Leaderboard',
      _bases: ['BaseObject', 'BaseModel'],
    };
    const ok = await post('/obj/create', { obj: { project_id, object_id: 'sdk', val: stamped } });
    expect(ok.status).toBe(200);
    const { obj } = await t.alice.client.objRead({ project_id, object_id: 'sdk', digest: 'latest' });
    expect(obj.val).toEqual(stamped);
    const bad = await post('/obj/create', { obj: { project_id, object_id: 'sdk', val: { ...stamped, columns: 'none' } } });
    expect(bad.status).toBe(422);
  });
});

describe('builtin SavedView', () => {
  it('stores a traces view as the reference does: definition dumped, calls shapes kept', async () => {
    const project_id = project();
    const definition = {
      filter: { trace_roots_only: true },
      query: { $expr: { $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'chat' }, case_insensitive: true } } },
      sort_by: [{ field: 'started_at', direction: 'desc' }],
      columns: [{ path: ['op'] }, { path: ['inputs', 'question'], label: 'Question' }],
    };
    const res = await post('/obj/create', {
      obj: {
        project_id,
        object_id: 'chat-calls',
        val: { view_type: 'traces', label: 'Chat calls', definition },
        builtin_object_class: 'SavedView',
      },
    });
    expect(res.status).toBe(200);
    const { obj } = await t.alice.client.objRead({ project_id, object_id: 'chat-calls', digest: 'latest' });
    expect(obj.val).toEqual({
      _type: 'SavedView',
      name: null,
      description: null,
      view_type: 'traces',
      label: 'Chat calls',
      definition: {
        _type: 'SavedViewDefinition',
        filter: definition.filter,
        query: definition.query,
        cols: null,
        columns: [
          { _type: 'Column', path: ['op'], label: null, _class_name: 'Column', _bases: ['BaseModel'] },
          { _type: 'Column', path: ['inputs', 'question'], label: 'Question', _class_name: 'Column', _bases: ['BaseModel'] },
        ],
        pin: null,
        sort_by: definition.sort_by,
        page: null,
        page_size: null,
        charts: null,
        _class_name: 'SavedViewDefinition',
        _bases: ['BaseModel'],
      },
      _class_name: 'SavedView',
      _bases: ['BaseObject', 'BaseModel'],
    });
    const listed = await t.alice.client.objsQuery({ project_id, filter: { base_object_classes: ['SavedView'] } });
    expect(listed.objs.map((o) => o.object_id)).toEqual(['chat-calls']);
  });

  it('answers 422 for a view without a label or with a bad sort direction', async () => {
    const project_id = project();
    const res = await post('/obj/create', {
      obj: {
        project_id,
        object_id: 'v',
        val: { view_type: 'traces', definition: { sort_by: [{ field: 'started_at', direction: 'up' }] } },
        builtin_object_class: 'SavedView',
      },
    });
    expect(res.status).toBe(422);
    expect((res.body as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc)).toEqual([
      ['val', 'label'],
      ['val', 'definition', 'sort_by'],
    ]);
  });
});
