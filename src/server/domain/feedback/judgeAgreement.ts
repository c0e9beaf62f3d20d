/**
 * Judge calibration: each scorer's answers beside the human answers to the same question on
 * the same calls. A scorer's feedback (`wandb.runnable.<scorer>`, payload `{output}`) pairs with
 * human feedback (`wandb.annotation.<question>`, payload `{value}`, from queues or the call
 * page) when an output field is named like the question, or, for a scalar output, the scorer
 * is. The newest answer per call and scorer, and per call, question and reviewer, counts.
 * docs/judge-agreement.md.
 */
import type { z } from 'zod';
import type { JudgeAgreementRes, JudgeAgreementRow } from '../../../contract/agreement.js';
import type { JsonValue } from '../../../contract/common.js';
import type { Store } from '../../store/Store.js';
import { cohenKappa, confusionOf, krippendorffAlpha, labelOf, percentAgreement } from './agreement.js';

const SCORER = 'wandb.runnable.';
const QUESTION = 'wandb.annotation.';
/** Rows of each kind read, newest first: bounds the work of one answer. */
const MAX_ROWS = 50_000;
const MAX_DISAGREEMENTS = 100;

interface Row {
  weave_ref: string;
  feedback_type: string;
  payload: { output?: JsonValue; value?: JsonValue } | null;
  wb_user_id: string | null;
  created_at: string;
  runnable_ref: string | null;
  annotation_ref: string | null;
}

/** Feedback rows whose type starts with `prefix`, newest first, at most MAX_ROWS (+1 to tell truncation). */
async function newestFeedback(store: Store, projectId: string, prefix: string): Promise<Row[]> {
  const rows = await store.feedback.queryFeedback({
    projectId,
    query: { $expr: { $contains: { input: { $getField: 'feedback_type' }, substr: { $literal: prefix } } } },
    fields: ['weave_ref', 'feedback_type', 'payload', 'wb_user_id', 'created_at', 'runnable_ref', 'annotation_ref'],
    sortBy: [{ field: 'created_at', direction: 'desc' }],
    limit: MAX_ROWS + 1,
  });
  return (rows as unknown as Row[]).filter((r) => r.feedback_type.startsWith(prefix));
}

const callIdOf = (weaveRef: string) => weaveRef.slice(weaveRef.lastIndexOf('/') + 1);
const isScalar = (v: JsonValue | undefined): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

interface HumanAnswer {
  annotator: string;
  value: JsonValue;
  annotationRef: string | null;
}

/** `since` (epoch µs): only scorer answers given since then (an alert's window); reviewers' answers of any age. */
export async function judgeAgreement(
  store: Store,
  projectId: string,
  { since }: { since?: number } = {},
): Promise<z.infer<typeof JudgeAgreementRes>> {
  const [allScorerRows, humanRows] = await Promise.all([
    newestFeedback(store, projectId, SCORER),
    newestFeedback(store, projectId, QUESTION),
  ]);
  const scorerRows = since === undefined ? allScorerRows : allScorerRows.filter((r) => Date.parse(r.created_at) * 1000 >= since);
  const truncated = allScorerRows.length > MAX_ROWS || humanRows.length > MAX_ROWS;

  // question → call → reviewer → newest answer (rows arrive newest first: the first seen wins).
  const human = new Map<string, Map<string, Map<string, HumanAnswer>>>();
  for (const r of humanRows.slice(0, MAX_ROWS)) {
    const question = r.feedback_type.slice(QUESTION.length);
    const value = r.payload?.value;
    if (!question || value === undefined || value === null) continue;
    const byCall = human.get(question) ?? new Map<string, Map<string, HumanAnswer>>();
    human.set(question, byCall);
    const byReviewer = byCall.get(callIdOf(r.weave_ref)) ?? new Map<string, HumanAnswer>();
    byCall.set(callIdOf(r.weave_ref), byReviewer);
    const annotator = r.wb_user_id ?? 'unknown';
    if (!byReviewer.has(annotator)) byReviewer.set(annotator, { annotator, value, annotationRef: r.annotation_ref });
  }

  // (scorer, field, question) → the paired answers, newest scorer answer per call.
  const groups = new Map<string, { scorer: string; feedbackType: string; field: string | null; question: string; calls: Paired[] }>();
  const seen = new Set<string>();
  for (const r of scorerRows.slice(0, MAX_ROWS)) {
    const scorer = r.feedback_type.slice(SCORER.length);
    const callId = callIdOf(r.weave_ref);
    if (!scorer || seen.has(`${scorer}\n${callId}`)) continue;
    seen.add(`${scorer}\n${callId}`);
    const output = r.payload?.output;
    const fields: [string | null, string, JsonValue][] =
      output && typeof output === 'object' && !Array.isArray(output)
        ? Object.entries(output)
            .filter(([, v]) => isScalar(v))
            .map(([k, v]) => [k, k, v])
        : isScalar(output)
          ? [[null, scorer, output]]
          : [];
    for (const [field, question, value] of fields) {
      const answers = human.get(question)?.get(callId);
      if (!answers) continue;
      const key = `${scorer}\n${field ?? ''}\n${question}`;
      const group = groups.get(key) ?? { scorer, feedbackType: r.feedback_type, field, question, calls: [] };
      groups.set(key, group);
      group.calls.push({ callId, runnableRef: r.runnable_ref, value, humans: [...answers.values()] });
    }
  }

  const judges = [...groups.values()].map((g) => agreementRow(g));
  judges.sort(
    (a, b) => (a.kappa ?? 2) - (b.kappa ?? 2) || a.scorer.localeCompare(b.scorer) || (a.field ?? '').localeCompare(b.field ?? ''),
  );
  return { judges, truncated };
}

interface Paired {
  callId: string;
  runnableRef: string | null;
  value: JsonValue;
  humans: HumanAnswer[];
}

function agreementRow(g: {
  scorer: string;
  feedbackType: string;
  field: string | null;
  question: string;
  calls: Paired[];
}): z.infer<typeof JudgeAgreementRow> {
  const pairs: [string, string][] = [];
  const units: string[][] = [];
  const reviewers = new Set<string>();
  const disagreements: z.infer<typeof JudgeAgreementRow>['disagreements'] = [];
  for (const c of g.calls) {
    const label = labelOf(c.value);
    units.push([label, ...c.humans.map((h) => labelOf(h.value))]);
    for (const h of c.humans) {
      pairs.push([label, labelOf(h.value)]);
      reviewers.add(h.annotator);
    }
    const others = c.humans.filter((h) => labelOf(h.value) !== label);
    if (others.length && disagreements.length < MAX_DISAGREEMENTS)
      disagreements.push({
        call_id: c.callId,
        scorer: c.value,
        reviewers: others.map((h) => ({ annotator: h.annotator, value: h.value })),
      });
  }
  const newest = g.calls[0];
  return {
    feedback_type: g.feedbackType,
    scorer: g.scorer,
    runnable_ref: newest?.runnableRef ?? null,
    field: g.field,
    question: g.question,
    annotation_ref: newest?.humans.find((h) => h.annotationRef)?.annotationRef ?? null,
    calls: g.calls.length,
    pairs: pairs.length,
    reviewers: reviewers.size,
    percent_agreement: percentAgreement(pairs),
    kappa: cohenKappa(pairs),
    alpha: krippendorffAlpha(units),
    confusion: confusionOf(pairs),
    disagreements,
  };
}
