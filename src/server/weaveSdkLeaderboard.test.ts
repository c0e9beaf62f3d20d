/**
 * A `Leaderboard` published through the official `weave` npm SDK (`client.publish(value, id)`,
 * which sends the value as given) in the Python SDK's stamped shape is stored as sent, read back
 * by the SDK's `ref.get()`, and is the very version Weft's UI makes for the same leaderboard
 * (`builtin_object_class: "Leaderboard"`, unstamped): same digest, so no new version
 * (docs/leaderboards.md "The object").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import { valueDigest } from './domain/objects/digests.js';
import { fromPlain } from './domain/objects/losslessJson.js';
import { startTestServer, type TestServer } from './testing/testServer.js';

const PROJECT = 'alice-co/boards';
const EVAL = `weave:///${PROJECT}/object/qa-eval:0Vzm5ASrgD4MkN8TfJt2NlLpXu3Rv7kKcQ1iBwYyZoE`;

let t: TestServer;
let sdk: Awaited<ReturnType<typeof weave.init>>;
const savedEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  t = await startTestServer();
  for (const k of ['WF_TRACE_SERVER_URL', 'WANDB_API_KEY']) savedEnv[k] = process.env[k];
  process.env.WF_TRACE_SERVER_URL = t.url;
  process.env.WANDB_API_KEY = t.alice.apiKey;
  sdk = await weave.init(PROJECT, { printCallLink: false });
});

afterAll(async () => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await t.close();
});

const NULL_FIELDS = [
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
];

describe('a Leaderboard published through the weave npm SDK', () => {
  it('is stored as sent, read back by the SDK, and equals the UI-made version', async () => {
    // The Python SDK's to_json of Leaderboard(name=..., columns=[LeaderboardColumn(...)]).
    const val = {
      _type: 'Leaderboard',
      name: 'qa-board',
      description: 'QA models',
      columns: [
        {
          _type: 'LeaderboardColumn',
          evaluation_object_ref: EVAL,
          scorer_name: 'correct',
          summary_metric_path: 'true_fraction',
          should_minimize: false,
          _class_name: 'LeaderboardColumn',
          _bases: ['BaseModel'],
        },
      ],
      ...Object.fromEntries(NULL_FIELDS.map((f) => [f, null])),
      _class_name: 'Leaderboard',
      _bases: ['BaseObject', 'BaseModel'],
    };
    const ref = (await sdk.publish(structuredClone(val), 'qa-board')) as weave.ObjectRef;
    const { obj } = await t.alice.client.objRead({ project_id: PROJECT, object_id: 'qa-board', digest: ref.digest });
    expect(obj).toMatchObject({ base_object_class: 'Leaderboard', leaf_object_class: 'Leaderboard', version_index: 0 });
    expect(obj.val).toEqual(val);
    expect(valueDigest(fromPlain(obj.val))).toBe(ref.digest);
    const got = (await ref.get()) as { columns: { scorer_name: string }[] };
    expect(got.columns[0]!.scorer_name).toBe('correct');

    // What the Leaderboards page sends for the same leaderboard.
    const ui = await t.alice.client.objCreate({
      obj: {
        project_id: PROJECT,
        object_id: 'qa-board',
        builtin_object_class: 'Leaderboard',
        val: {
          name: 'qa-board',
          description: 'QA models',
          columns: [{ evaluation_object_ref: EVAL, scorer_name: 'correct', summary_metric_path: 'true_fraction', should_minimize: false }],
        },
      },
    });
    expect(ui.digest).toBe(ref.digest);
  });
});
