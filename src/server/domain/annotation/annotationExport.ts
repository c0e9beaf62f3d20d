/**
 * A queue's answers leaving Weft: as a file (JSON lines or CSV, one record per item and
 * reviewer, unreviewed items once with an empty reviewer) or as a Weave Dataset (one row per
 * item, the call's inputs and output beside the answers), written the way the SDK publishes
 * a dataset: a table of rows and a `Dataset` object pointing at it (v2ObjectCreate.ts).
 *
 * Questions become columns named after their AnnotationSpec (`wandb.annotation.<name>` loses
 * its prefix, as the reference UI shows it). Where several reviewers answered one item the
 * dataset row holds the most frequent answer (ties: the earliest reviewer's) and, in
 * `reviews`, everyone's, so disagreement is not lost. CSV cells go through core/csv.ts, which
 * neutralises what a spreadsheet would run as a formula.
 */
import type { AnnotationQueueResultRow } from '../../../contract/annotationQueueLeads.js';
import type { JsonValue } from '../../../contract/common.js';
import type { QueueRecord } from '../../store/AnnotationQueuesStore.js';
import type { Store } from '../../store/Store.js';
import { csvRow } from '../../core/csv.js';
import { queueResults } from './annotationResults.js';
import { fromPlain } from '../objects/losslessJson.js';
import { parseRef } from '../objects/refs.js';
import { createDataset } from '../objects/v2ObjectCreate.js';

/** The column name of a question: its spec's object name. */
const questionName = (ref: string) => {
  try {
    const parsed = parseRef(ref);
    return parsed.kind === 'object' ? parsed.name : ref;
  } catch {
    return ref;
  }
};

/** Inputs and output of the items' calls, by call id. */
async function callContents(store: Store, projectId: string, callIds: string[]) {
  const out = new Map<string, { inputs: unknown; output: unknown }>();
  for (let i = 0; i < callIds.length; i += 500) {
    const rows = store.calls.queryCalls({
      projectId,
      filter: { call_ids: callIds.slice(i, i + 500) },
      columns: ['id', 'inputs', 'output'],
    });
    for await (const call of rows) out.set(call.id, { inputs: call.inputs ?? {}, output: call.output ?? null });
  }
  return out;
}

/** One export record per (item, reviewer); items nobody touched appear once. */
interface ExportRecord {
  item_id: string;
  call_id: string;
  thread_id: string | null;
  op_name: string;
  annotator: string;
  annotation_state: string;
  updated_at: string | null;
  inputs: unknown;
  output: unknown;
  answers: Record<string, JsonValue>;
}

async function exportRecords(store: Store, queue: QueueRecord): Promise<ExportRecord[]> {
  const { rows } = await queueResults(store, { queue });
  const contents = await callContents(
    store,
    queue.projectId,
    rows.map((r) => r.item.call_id),
  );
  return rows.flatMap((row): ExportRecord[] => {
    const base = {
      item_id: row.item.id,
      call_id: row.item.call_id,
      thread_id: row.item.thread_id,
      op_name: row.item.call_op_name,
      inputs: contents.get(row.item.call_id)?.inputs ?? null,
      output: contents.get(row.item.call_id)?.output ?? null,
    };
    if (row.reviews.length === 0) return [{ ...base, annotator: '', annotation_state: 'unstarted', updated_at: null, answers: {} }];
    return row.reviews.map((r) => ({
      ...base,
      annotator: r.annotator,
      annotation_state: r.annotation_state,
      updated_at: r.updated_at,
      answers: Object.fromEntries(Object.entries(r.answers).map(([ref, v]) => [questionName(ref), v])),
    }));
  });
}

/** The file body and its type: JSON lines, or CSV with a column per question. */
export async function exportQueue(store: Store, queue: QueueRecord, format: 'jsonl' | 'csv'): Promise<Response> {
  const records = await exportRecords(store, queue);
  let body: string;
  if (format === 'jsonl') body = records.map((r) => `${JSON.stringify(r)}\n`).join('');
  else {
    const questions = queue.scorerRefs.map(questionName);
    const fixed = [
      'item_id',
      'call_id',
      'thread_id',
      'op_name',
      'annotator',
      'annotation_state',
      'updated_at',
      'inputs',
      'output',
    ] as const;
    body =
      csvRow([...fixed, ...questions]) +
      records.map((r) => csvRow([...fixed.map((k) => r[k]), ...questions.map((q) => r.answers[q])])).join('');
  }
  const fileName = queue.name.replace(/[^\w.-]+/g, '_') || 'queue';
  return new Response(body, {
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}-answers.${format}"`,
      'x-content-type-options': 'nosniff',
    },
  });
}

/** The most frequent value; ties go to the one seen first. */
function consensus(values: JsonValue[]): JsonValue {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(JSON.stringify(v), (counts.get(JSON.stringify(v)) ?? 0) + 1);
  let best: JsonValue = values[0] ?? null;
  for (const v of values) if (counts.get(JSON.stringify(v))! > counts.get(JSON.stringify(best))!) best = v;
  return best;
}

/**
 * An item's answers: per question, the most frequent among its completed reviews (null when
 * none answered it), and everyone's answers, so disagreement is not lost. "Add to dataset"
 * reads queue items through this too (domain/datasets/itemSources.ts).
 */
export function itemAnswers(row: AnnotationQueueResultRow, questions: string[]) {
  const answered = row.reviews.filter((r) => r.annotation_state === 'completed');
  const answers: Record<string, JsonValue> = {};
  for (const ref of questions) {
    const values = answered.filter((r) => Object.hasOwn(r.answers, ref)).map((r) => r.answers[ref]!);
    answers[questionName(ref)] = values.length ? consensus(values) : null;
  }
  const reviews = answered.map((r) => ({
    annotator: r.annotator,
    ...Object.fromEntries(Object.entries(r.answers).map(([ref, v]) => [questionName(ref), v])),
  }));
  return { answers, reviews };
}

/** A dataset row per item: call id, inputs, output, an answer per question, everyone's reviews. */
function datasetRow(row: AnnotationQueueResultRow, questions: string[], contents: { inputs: unknown; output: unknown } | undefined) {
  const { answers, reviews } = itemAnswers(row, questions);
  return {
    call_id: row.item.call_id,
    ...(row.item.thread_id ? { thread_id: row.item.thread_id } : {}),
    inputs: contents?.inputs ?? null,
    output: contents?.output ?? null,
    ...answers,
    reviews,
  };
}

/** Saves the answered items (or all, with `includeSkipped`) as a new Dataset version. */
export async function saveQueueAsDataset(
  store: Store,
  req: { queue: QueueRecord; userId: string; now: number; name: string; description?: string | null; includeSkipped?: boolean | null },
) {
  const { rows } = await queueResults(store, { queue: req.queue });
  const kept = req.includeSkipped ? rows : rows.filter((r) => r.reviews.some((v) => v.annotation_state === 'completed'));
  const contents = await callContents(
    store,
    req.queue.projectId,
    kept.map((r) => r.item.call_id),
  );
  const datasetRows = kept.map((r) => datasetRow(r, req.queue.scorerRefs, contents.get(r.item.call_id)));
  const description = req.description ?? `Answers from the annotation queue “${req.queue.name}”`;
  const [entity, project] = req.queue.projectId.split('/') as [string, string];
  const created = await createDataset(
    store,
    { projectId: req.queue.projectId, userId: req.userId, now: req.now, body: fromPlain({ rows: datasetRows }) },
    { entity, project, name: req.name, description, rows: datasetRows as Record<string, JsonValue>[] },
  );
  return {
    ref: `weave:///${req.queue.projectId}/object/${created.object_id}:${created.digest}`,
    digest: created.digest,
    row_count: datasetRows.length,
  };
}
