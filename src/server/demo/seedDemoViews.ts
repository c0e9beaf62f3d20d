/**
 * The demo's leaderboard, saved view and prompt, written as the dashboard and the SDKs write
 * them (docs/leaderboards.md, docs/saved-views.md, docs/prompts.md): a `Leaderboard` of the demo
 * evaluation's scorers (correct, helpfulness, conciseness), a Calls view of the failed traces,
 * and a `MessagesPrompt` with three versions, the last one aliased `production`.
 */
import type { WeftClient } from '../../client/index.js';

/** The `support-leaderboard`: the three models ranked on each scorer. */
export async function seedDemoLeaderboard(client: WeftClient, projectId: string, evaluation: string): Promise<void> {
  const column = (scorer_name: string, summary_metric_path: string, should_minimize: boolean | null) => ({
    evaluation_object_ref: evaluation,
    scorer_name,
    summary_metric_path,
    should_minimize,
  });
  await client.objCreate({
    obj: {
      project_id: projectId,
      object_id: 'support-leaderboard',
      builtin_object_class: 'Leaderboard',
      val: {
        name: 'support-leaderboard',
        description: 'Support bots on the support questions',
        columns: [column('correct', 'true_fraction', null), column('helpfulness', 'mean', null), column('conciseness', 'mean', null)],
      },
    },
  });
}

const pydantic = (name: string, fields: Record<string, unknown>, bases = ['BaseModel']) => ({
  _type: name,
  ...fields,
  _class_name: name,
  _bases: bases,
});

/** "Failed traces": the Calls page filtered to errors, as the Views dialog saves it. */
export async function seedDemoSavedView(client: WeftClient, projectId: string): Promise<void> {
  const status = ['summary.weave.status', 'eq', 'error'];
  const columns = ['op', 'status', 'latency', 'output', 'tokens', 'cost'];
  const definition = pydantic('SavedViewDefinition', {
    filter: { trace_roots_only: true },
    query: { $expr: { $eq: [{ $getField: status[0] }, { $literal: status[2] }] } },
    cols: null,
    columns: columns.map((id) => pydantic('Column', { path: [id], label: null })),
    pin: null,
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    page: null,
    page_size: null,
    charts: null,
    weft_search: `?${new URLSearchParams({ f: JSON.stringify([status]) })}`,
  });
  await client.objCreate({
    obj: {
      project_id: projectId,
      object_id: 'view-traces-failed-traces',
      val: pydantic('SavedView', { name: 'Failed traces', description: null, view_type: 'traces', label: 'Failed traces', definition }, [
        'BaseObject',
        'BaseModel',
      ]),
    },
  });
}

/** `support-prompt`: three versions of a MessagesPrompt as the SDKs publish it; v2 is `production`. */
export async function seedDemoPrompt(client: WeftClient, projectId: string): Promise<void> {
  const system = [
    'You are a support assistant for {product}.',
    'You are a support assistant for {product}. Answer in one or two sentences.',
    'You are a support assistant for {product}. Answer in one or two sentences, in {language}.',
  ];
  let digest = '';
  for (const content of system) {
    const val = {
      _type: 'MessagesPrompt',
      name: 'support-prompt',
      description: 'The support bot’s system and user messages',
      messages: [
        { role: 'system', content },
        { role: 'user', content: '{question}' },
      ],
      _class_name: 'MessagesPrompt',
      _bases: ['Prompt', 'Object', 'BaseModel'],
    };
    ({ digest } = await client.objCreate({ obj: { project_id: projectId, object_id: 'support-prompt', val } }));
  }
  await client.objSetAliases({ project_id: projectId, object_id: 'support-prompt', digest, aliases: ['production'] });
}
