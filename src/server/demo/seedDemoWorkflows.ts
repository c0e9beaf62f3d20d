/**
 * The demo beyond traces, so every page has something on a first run: a dataset, three models
 * and an evaluation with three scorers run once per model (the v2 evaluation API writes the
 * same call tree the SDK does), two annotation queues with typed questions and some answers
 * (one of calls, one of whole conversations wanting two reviewers), and reactions and notes
 * on a few calls. All through the typed client, as a user's code would write it.
 */
import type { WeftClient } from '../../client/index.js';
import { createRng } from './seededRandom.js';

/** A support-bot test set: each question with the answer a good bot gives. */
const QUESTIONS = [
  { question: 'How do I reset my password?', expected: 'Settings → Security → Reset password; a link arrives by email.' },
  { question: 'Can I get a refund on an annual plan?', expected: 'Yes, in full within 30 days of purchase.' },
  { question: 'How do I export my data?', expected: 'Settings → Data → Export; you get a ZIP of CSV files.' },
  { question: 'Which regions do you host in?', expected: 'EU (Frankfurt) and US (Virginia).' },
  { question: 'How do I add a teammate?', expected: 'Admin → Members → Invite, then pick their role.' },
  { question: 'Is there an API rate limit?', expected: '600 requests per minute per API key.' },
  { question: 'How do I change my billing email?', expected: 'Billing → Details → Billing email.' },
  { question: 'Do you support SSO?', expected: 'Yes, SAML and OIDC on the Enterprise plan.' },
  { question: 'How do I delete my account?', expected: 'Settings → Account → Delete account; it takes effect after 7 days.' },
  { question: 'Can I pay by invoice?', expected: 'Yes, for annual plans over $5,000.' },
];

/** A model's behaviour: how often it is right, and how wordy it is. */
const MODELS = [
  { name: 'support-bot-gpt-4o-mini', accuracy: 0.6, wordiness: 0.7 },
  { name: 'support-bot-gpt-4.1', accuracy: 0.9, wordiness: 0.4 },
  { name: 'support-bot-claude-haiku', accuracy: 0.75, wordiness: 0.2 },
];

const WRONG = [
  'Please contact support for help with that.',
  'I am not sure; check the documentation.',
  'You can do that from the dashboard.',
];

/** Evaluation, three runs; answers the evaluation's ref. */
export async function seedDemoEvaluation(client: WeftClient, projectId: string, seed: number): Promise<string> {
  const [entity, project] = projectId.split('/') as [string, string];
  const path = { entity, project };
  const rng = createRng(seed + 17);
  const ds = await client.datasetCreate({
    ...path,
    name: 'support-questions',
    description: 'Questions customers ask, with the right answer',
    rows: QUESTIONS,
  });
  const dataset = `weave:///${projectId}/object/support-questions:${ds.digest}`;
  const scorer = async (name: string, code: string) => (await client.scorerCreate({ ...path, name, op_source_code: code })).scorer;
  const correct = await scorer('correct', 'def score(output, expected):\n    return expected.lower()[:12] in output.lower()');
  const helpfulness = await scorer('helpfulness', 'def score(output, expected):\n    return judge(output, expected)  # 0..1');
  const conciseness = await scorer('conciseness', 'def score(output):\n    return max(0.0, 1 - len(output) / 400)');
  const evaluation = (
    await client.evaluationCreate({ ...path, name: 'support-eval', dataset, scorers: [correct, helpfulness, conciseness] })
  ).evaluation_ref;
  for (const m of MODELS) {
    const model = (
      await client.modelCreate({
        ...path,
        name: m.name,
        source_code: `class SupportBot(weave.Model):\n    model_name: str = "${m.name.replace('support-bot-', '')}"\n\n    @weave.op\n    def predict(self, question: str) -> str:\n        return answer(self.model_name, question)`,
        attributes: { temperature: 0.2 },
      })
    ).model_ref;
    const { evaluation_run_id } = await client.evaluationRunCreate({ ...path, evaluation, model });
    for (const row of QUESTIONS) {
      const right = rng.next() < m.accuracy;
      const padding = rng.next() < m.wordiness ? ' Let me know if there is anything else I can help you with today!' : '';
      const output = `${right ? row.expected : rng.pick(WRONG)}${padding}`;
      const { prediction_id } = await client.predictionCreate({ ...path, model, inputs: row, output, evaluation_run_id });
      const scores: [string, boolean | number][] = [
        [correct, right],
        [helpfulness, Math.round((right ? 0.7 + rng.next() * 0.3 : 0.1 + rng.next() * 0.3) * 100) / 100],
        [conciseness, Math.round(Math.max(0, 1 - output.length / 200) * 100) / 100],
      ];
      for (const [ref, value] of scores) await client.scoreCreate({ ...path, prediction_id, scorer: ref, value, evaluation_run_id });
      await client.predictionFinish({ ...path, prediction_id });
    }
    await client.evaluationRunFinish({ ...path, evaluation_run_id });
  }
  return evaluation;
}

/** An AnnotationSpec object, as the queue form creates it; answers its ref. */
async function createSpec(client: WeftClient, projectId: string, name: string, description: string, field_schema: Record<string, unknown>) {
  const val = { _type: 'AnnotationSpec', _class_name: 'AnnotationSpec', _bases: ['Object', 'BaseModel'], name, description, field_schema };
  const { digest } = await client.objCreate({ obj: { project_id: projectId, object_id: name, val } });
  return `weave:///${projectId}/object/${name}:${digest}`;
}

/** Two queues with answers, and reactions and notes on calls. */
export async function seedDemoReviews(client: WeftClient, projectId: string, seed: number): Promise<void> {
  const rng = createRng(seed + 29);
  const verdict = await createSpec(client, projectId, 'verdict', 'Is the answer right and useful?', {
    type: 'string',
    enum: ['good', 'okay', 'bad'],
  });
  const grounded = await createSpec(client, projectId, 'grounded', 'Does every number come from a tool result?', { type: 'boolean' });
  // Not 'helpfulness': that name is the evaluation's scorer, and an object name keeps one type.
  const helpful = await createSpec(client, projectId, 'helpful', 'How helpful is the answer, 1 to 5?', {
    type: 'integer',
    minimum: 1,
    maximum: 5,
  });
  const comment = await createSpec(client, projectId, 'comment', 'Anything the team should know', { type: 'string', maxLength: 500 });

  const roots: { id: string; threadId: string | null }[] = [];
  for await (const call of client.callsStreamQuery({
    project_id: projectId,
    filter: { trace_roots_only: true },
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    columns: ['id', 'thread_id'],
    limit: 400,
  })) {
    roots.push({ id: call.id, threadId: call.thread_id ?? null });
  }
  const single = roots.filter((r) => !r.threadId).slice(0, 24);
  const threads = [...new Set(roots.flatMap((r) => (r.threadId ? [r.threadId] : [])))].slice(0, 6);

  const { id: callsQueue } = await client.annotationQueueCreate({
    project_id: projectId,
    name: 'Answer quality',
    description: 'Recent answers of the copilot: is each one right, grounded and helpful?',
    scorer_refs: [verdict, grounded, helpful, comment],
    display_fields: ['inputs', 'output'],
  });
  await client.annotationQueueAddCalls({
    project_id: projectId,
    queue_id: callsQueue,
    call_ids: single.map((r) => r.id),
    display_fields: [],
  });
  const { items } = await client.annotationQueueItemsQuery({ project_id: projectId, queue_id: callsQueue });
  // The first third answered, one skipped: the queue page has results and work left.
  for (const [i, item] of items.slice(0, 9).entries()) {
    if (i === 4) {
      await client.annotationQueueItemSubmit({
        project_id: projectId,
        queue_id: callsQueue,
        item_id: item.id,
        annotations: [],
        skip: true,
      });
      continue;
    }
    const v = rng.pick(['good', 'good', 'good', 'okay', 'bad']);
    const annotations = [
      { annotation_ref: verdict, value: v },
      { annotation_ref: grounded, value: v !== 'bad' },
      { annotation_ref: helpful, value: v === 'good' ? rng.int(4, 5) : v === 'okay' ? 3 : rng.int(1, 2) },
      ...(v === 'bad' ? [{ annotation_ref: comment, value: 'The numbers do not match the SQL result.' }] : []),
    ];
    await client.annotationQueueItemSubmit({ project_id: projectId, queue_id: callsQueue, item_id: item.id, annotations });
  }

  if (threads.length > 0) {
    const { id: threadsQueue } = await client.annotationQueueCreate({
      project_id: projectId,
      name: 'Conversation review',
      description: 'Whole conversations: did the copilot stay on topic and answer every follow-up?',
      scorer_refs: [verdict, helpful],
      reviewers_per_item: 2,
    });
    await client.annotationQueueAddThreads({ project_id: projectId, queue_id: threadsQueue, thread_ids: threads });
    const first = (await client.annotationQueueItemsQuery({ project_id: projectId, queue_id: threadsQueue, limit: 1 })).items[0];
    if (first) {
      await client.annotationQueueItemSubmit({
        project_id: projectId,
        queue_id: threadsQueue,
        item_id: first.id,
        annotations: [
          { annotation_ref: verdict, value: 'good' },
          { annotation_ref: helpful, value: 4 },
        ],
      });
    }
  }

  // Reactions and notes, as people leave them on the calls page.
  const reactions = ['👍', '👍', '👎', '🎉', '🤔', '👀'];
  for (const [i, r] of roots.slice(0, 14).entries()) {
    const weave_ref = `weave:///${projectId}/call/${r.id}`;
    await client.feedbackCreate({
      project_id: projectId,
      weave_ref,
      feedback_type: 'wandb.reaction.1',
      payload: { emoji: reactions[i % reactions.length]! },
    });
    if (i % 4 === 0) {
      const note = rng.pick([
        'Great answer: cites the SQL it ran.',
        'Latency is high here; the second search was not needed.',
        'Customer follow-up needed, see ticket #4821.',
        'Check the number formatting (thousands separators).',
      ]);
      await client.feedbackCreate({ project_id: projectId, weave_ref, feedback_type: 'wandb.note.1', payload: { note } });
    }
  }
}
