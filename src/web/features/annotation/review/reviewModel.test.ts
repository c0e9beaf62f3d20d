/** Per-reviewer progress: what counts as done for me, where I resume, where submit goes next. */
import { describe, expect, it } from 'vitest';
import type { MyAnswer, QueueItem } from '../annotationQueries.js';
import { myItemStates, nextUnfinished, resumeIndex } from './reviewModel.js';

const item = (n: number, state: QueueItem['annotation_state'] = 'unstarted', annotator: string | null = null): QueueItem => ({
  id: `i${n}`,
  project_id: 'e/p',
  queue_id: 'q',
  call_id: `c${n}`,
  call_started_at: '',
  call_ended_at: null,
  call_op_name: '',
  call_trace_id: '',
  display_fields: [],
  added_by: null,
  annotation_state: state,
  annotator_user_id: annotator,
  thread_id: null,
  completed_reviews: state === 'completed' ? 1 : 0,
  reserved_by: null,
  created_at: '',
  created_by: '',
  updated_at: '',
  deleted_at: null,
  position_in_queue: n,
});

describe('myItemStates', () => {
  it('counts my newest records and my answers covered by someone else', () => {
    const items = [item(1, 'completed', 'me'), item(2, 'skipped', 'me'), item(3, 'completed', 'bob'), item(4, 'completed', 'bob'), item(5)];
    const answers: MyAnswer[] = [{ callId: 'c3', annotationRef: 'r', value: 1 }];
    expect([...myItemStates({ items, answers, user: 'me' })]).toEqual([
      ['i1', 'completed'],
      ['i2', 'skipped'],
      ['i3', 'completed'],
    ]);
  });
  it('does not count my own in-progress item', () => {
    expect(myItemStates({ items: [item(1, 'in_progress', 'me')], answers: [], user: 'me' }).size).toBe(0);
  });
});

describe('nextUnfinished / resumeIndex', () => {
  const items = [item(1), item(2), item(3), item(4)];
  const done = new Map([
    ['i1', 'completed' as const],
    ['i3', 'skipped' as const],
  ]);
  it('resumes at the first item I have not finished', () => expect(resumeIndex({ items, done })).toBe(1));
  it('moves forward, wrapping around', () => {
    expect(nextUnfinished({ items, done, after: 1 })).toBe(3);
    expect(nextUnfinished({ items, done, after: 3 })).toBe(1);
  });
  it('answers null when everything is done', () => {
    const all = new Map(items.map((i) => [i.id, 'completed' as const]));
    expect(resumeIndex({ items, done: all })).toBeNull();
    expect(resumeIndex({ items: [], done: all })).toBeNull();
  });
});
