/**
 * What "Add to dataset" maps from: one plain document per selected call, thread or queue
 * item, in the order they were named (docs/datasets.md "Add to dataset"). A call gives its
 * inputs, output, its feedback by kind (annotations, scores, reactions, notes) and a few of its
 * own fields; a thread gives its last turn's inputs and output, the turns before it as
 * `history`, every turn as `turns`, and the feedback on any of its turns; a queue item is its
 * call or thread plus the queue's answers, read as the queue's own export reads them.
 */
import type { DatasetRowSource } from '../../../contract/datasetAdd.js';
import type { Feedback } from '../../../contract/feedback.js';
import type { CallRecord } from '../../store/CallsStore.js';
import type { Store } from '../../store/Store.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { callRef } from '../calls/callExtras.js';
import { itemAnswers } from '../annotation/annotationExport.js';
import { queueResults } from '../annotation/annotationResults.js';

export type SourceDoc = Record<string, unknown>;

/** Turns one request may read across its threads: a bound on memory and time. */
export const MAX_THREAD_TURNS = 20_000;

/** The roots a path may start with, per kind of source (docs/datasets.md "Add to dataset"). */
const FEEDBACK_ROOTS = ['annotations', 'scores', 'reactions', 'notes'];
export const SOURCE_ROOTS: Record<DatasetRowSource['kind'], string[]> = {
  calls: ['inputs', 'output', ...FEEDBACK_ROOTS, 'call'],
  threads: ['inputs', 'output', 'history', 'turns', ...FEEDBACK_ROOTS, 'thread'],
  queue_items: ['inputs', 'output', 'history', 'turns', ...FEEDBACK_ROOTS, 'call', 'thread', 'answers', 'reviews', 'item'],
};

const CHUNK = 500;
const chunks = <T>(xs: T[]): T[][] => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

const refuse = (loc: (string | number)[], msg: string) =>
  new ValidationError([{ loc: ['body', 'source', ...loc], msg, type: 'value_error' }]);

/** "a, b, c and 4 more": ids named in an error, bounded. */
const someOf = (ids: string[]) => (ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', '));

/** The last value of a feedback type's suffix per name, and reactions and notes in order. */
function feedbackFields(rows: Feedback[]): SourceDoc {
  const annotations: Record<string, unknown> = {};
  const scores: Record<string, unknown> = {};
  const reactions: unknown[] = [];
  const notes: unknown[] = [];
  for (const f of [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const type = f.feedback_type;
    if (type.startsWith('wandb.annotation.')) annotations[type.slice('wandb.annotation.'.length)] = f.payload.value ?? null;
    else if (type.startsWith('wandb.runnable.')) scores[type.slice('wandb.runnable.'.length)] = f.payload.output ?? null;
    else if (type === 'wandb.reaction.1') reactions.push(f.payload.emoji ?? null);
    else if (type === 'wandb.note.1') notes.push(f.payload.note ?? null);
  }
  return { annotations, scores, reactions, notes };
}

/** Feedback rows per call id, one lookup per chunk of calls. */
async function feedbackByCall(store: Store, projectId: string, callIds: string[]): Promise<Map<string, Feedback[]>> {
  const out = new Map<string, Feedback[]>();
  for (const part of chunks(callIds)) {
    const rows = await store.feedback.feedbackForRefs({ projectId, weaveRefs: part.map((id) => callRef(projectId, id)) });
    for (const row of rows) {
      const id = row.weave_ref.slice(row.weave_ref.lastIndexOf('/') + 1);
      out.set(id, [...(out.get(id) ?? []), row]);
    }
  }
  return out;
}

const CALL_COLUMNS = ['id', 'op_name', 'display_name', 'trace_id', 'thread_id', 'started_at', 'inputs', 'output'];

/** The calls by id; ids of no live call of the project are a 422 naming them. */
async function readCalls(store: Store, projectId: string, ids: string[], loc: (string | number)[]): Promise<Map<string, CallRecord>> {
  const calls = new Map<string, CallRecord>();
  for (const part of chunks([...new Set(ids)])) {
    for await (const call of store.calls.queryCalls({ projectId, filter: { call_ids: part }, columns: CALL_COLUMNS }))
      calls.set(call.id, call);
  }
  const missing = ids.filter((id) => !calls.has(id));
  if (missing.length) throw refuse(loc, `No call ${someOf(missing)} in ${projectId}`);
  return calls;
}

function callDoc(call: CallRecord, feedback: Feedback[] | undefined): SourceDoc {
  return {
    inputs: call.inputs ?? {},
    output: call.output ?? null,
    ...feedbackFields(feedback ?? []),
    call: {
      id: call.id,
      op_name: call.op_name,
      display_name: call.display_name ?? null,
      trace_id: call.trace_id,
      thread_id: call.thread_id ?? null,
      started_at: call.started_at,
    },
  };
}

async function callDocs(store: Store, projectId: string, ids: string[], loc: (string | number)[]): Promise<Map<string, SourceDoc>> {
  const calls = await readCalls(store, projectId, ids, loc);
  const feedback = await feedbackByCall(store, projectId, [...calls.keys()]);
  return new Map([...calls].map(([id, call]) => [id, callDoc(call, feedback.get(id))]));
}

/** Each thread's turns (the calls with `id == turn_id`) oldest first; a thread with none is a 422. */
async function threadDocs(store: Store, projectId: string, threadIds: string[], loc: (string | number)[]): Promise<Map<string, SourceDoc>> {
  const turns = new Map<string, CallRecord[]>();
  let read = 0;
  for (const part of chunks([...new Set(threadIds)])) {
    const rows = store.calls.queryCalls({
      projectId,
      filter: { thread_ids: part },
      query: { $expr: { $eq: [{ $getField: 'turn_id' }, { $getField: 'id' }] } },
      sortBy: [{ field: 'started_at', direction: 'asc' }],
      columns: CALL_COLUMNS,
    });
    for await (const call of rows) {
      if (++read > MAX_THREAD_TURNS)
        throw refuse(loc, `These threads have more than ${MAX_THREAD_TURNS} turns together: select fewer threads`);
      turns.set(call.thread_id!, [...(turns.get(call.thread_id!) ?? []), call]);
    }
  }
  const missing = threadIds.filter((id) => !turns.has(id));
  if (missing.length) throw refuse(loc, `No thread ${someOf(missing)} with turns in ${projectId}`);
  const feedback = await feedbackByCall(
    store,
    projectId,
    [...turns.values()].flatMap((ts) => ts.map((t) => t.id)),
  );
  const out = new Map<string, SourceDoc>();
  for (const [threadId, ts] of turns) {
    const exchange = ts.map((t) => ({ inputs: t.inputs ?? {}, output: t.output ?? null }));
    const last = exchange.at(-1)!;
    out.set(threadId, {
      inputs: last.inputs,
      output: last.output,
      history: exchange.slice(0, -1),
      turns: exchange,
      ...feedbackFields(ts.flatMap((t) => feedback.get(t.id) ?? [])),
      thread: { id: threadId, turn_count: ts.length, first_turn_id: ts[0]!.id, last_turn_id: ts.at(-1)!.id },
    });
  }
  return out;
}

/** The queue's items by id with their answers, the items' calls or threads read as above. */
async function queueItemDocs(store: Store, projectId: string, queueId: string, itemIds: string[]): Promise<SourceDoc[]> {
  const queue = await store.annotationQueues.readQueue({ projectId, queueId });
  if (!queue) throw new NotFoundError(`Queue ${queueId} not found`);
  const { rows } = await queueResults(store, { queue });
  const byId = new Map(rows.map((r) => [r.item.id, r]));
  const missing = itemIds.filter((id) => !byId.has(id));
  if (missing.length) throw refuse(['item_ids'], `No item ${someOf(missing)} in queue ${queueId}`);
  const picked = itemIds.map((id) => byId.get(id)!);
  const threadIds = picked.flatMap((r) => (r.item.thread_id ? [r.item.thread_id] : []));
  const callIds = picked.map((r) => r.item.call_id);
  const threads = threadIds.length ? await threadDocs(store, projectId, threadIds, ['item_ids']) : new Map<string, SourceDoc>();
  const calls = await callDocs(store, projectId, callIds, ['item_ids']);
  return picked.map((row) => {
    const { answers, reviews } = itemAnswers(row, queue.scorerRefs);
    const base = row.item.thread_id
      ? { ...threads.get(row.item.thread_id)!, call: calls.get(row.item.call_id)!.call }
      : calls.get(row.item.call_id)!;
    return {
      ...base,
      answers,
      reviews,
      item: { id: row.item.id, position: row.item.position_in_queue, state: row.item.annotation_state },
    };
  });
}

/** One document per named item, in the order named (an item named twice gives two rows). */
export async function sourceDocs(store: Store, projectId: string, source: DatasetRowSource): Promise<SourceDoc[]> {
  switch (source.kind) {
    case 'calls': {
      const docs = await callDocs(store, projectId, source.call_ids, ['call_ids']);
      return source.call_ids.map((id) => docs.get(id)!);
    }
    case 'threads': {
      const docs = await threadDocs(store, projectId, source.thread_ids, ['thread_ids']);
      return source.thread_ids.map((id) => docs.get(id)!);
    }
    case 'queue_items':
      return queueItemDocs(store, projectId, source.queue_id, source.item_ids);
  }
}
