/**
 * Where a reviewer is in a queue. Progress is per reviewer: an item is done for me when my own
 * progress record says completed or skipped. Items only expose the newest record's state and
 * owner, so a record of mine that another reviewer later covered is recovered from the answers
 * I wrote (feedback rows carrying the queue id); a skip covered that way is caught by the
 * server, which refuses a second submit.
 */
import type { MyAnswer, QueueItem } from '../annotationQueries.js';

/** How I finished an item. */
export type MyState = 'completed' | 'skipped';

/** My finished items: item id → how I finished it. */
export function myItemStates({ items, answers, user }: { items: QueueItem[]; answers: MyAnswer[]; user: string }): Map<string, MyState> {
  const answered = new Set(answers.map((a) => a.callId));
  const done = new Map<string, MyState>();
  for (const item of items) {
    const mine = item.annotator_user_id === user && (item.annotation_state === 'completed' || item.annotation_state === 'skipped');
    if (mine) done.set(item.id, item.annotation_state as MyState);
    else if (answered.has(item.call_id)) done.set(item.id, 'completed');
  }
  return done;
}

/** The index of the first item after `after` that I have not finished, wrapping; null when none. */
export function nextUnfinished({
  items,
  done,
  after,
}: {
  items: QueueItem[];
  done: ReadonlyMap<string, MyState>;
  after: number;
}): number | null {
  const n = items.length;
  for (let step = 1; step <= n; step++) {
    const i = (((after + step) % n) + n) % n;
    if (!done.has(items[i]!.id)) return i;
  }
  return null;
}

/** Where a reviewer resumes: the first item they have not finished, or null when all are. */
export function resumeIndex({ items, done }: { items: QueueItem[]; done: ReadonlyMap<string, MyState> }): number | null {
  return nextUnfinished({ items, done, after: -1 });
}

/** My earlier answers on one call, by spec ref. */
export function answersOnCall(answers: MyAnswer[], callId: string): Map<string, unknown> {
  return new Map(answers.filter((a) => a.callId === callId).map((a) => [a.annotationRef, a.value]));
}
