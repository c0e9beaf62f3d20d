/**
 * The services object carries the clock handlers take "now" from: a server started with a
 * fixed clock records that time on what requests create, update and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from './services.js';
import { startTestServer, type TestServer } from './testing/testServer.js';

const FIXED = Date.UTC(2031, 4, 6, 7, 8, 9, 123) * 1000 + 456;
const FIXED_ISO = '2031-05-06T07:08:09.123456Z';
const PROJECT = 'alice-co/clock';

describe('the services clock', () => {
  let t: TestServer;
  beforeAll(async () => {
    const clock: Clock = { nowMicros: () => FIXED };
    // In-process requests: a clock is code, and request threads keep the system clock.
    t = await startTestServer({ env: { WEFT_THREADS: '0' }, clock });
  });
  afterAll(() => t.close());

  it('stamps feedback with the clock of the services object', async () => {
    const created = await t.alice.client.feedbackCreate({
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/c1`,
      feedback_type: 'note',
      payload: { note: 'on time' },
    });
    expect(created.created_at).toBe(FIXED_ISO);
  });

  it('stamps an annotation queue created, then updated, with it', async () => {
    const { id } = await t.alice.client.annotationQueueCreate({ project_id: PROJECT, name: 'q', scorer_refs: [] });
    const { queue } = await t.alice.client.annotationQueueUpdate({ project_id: PROJECT, queue_id: id, name: 'renamed' });
    expect([queue.name, queue.created_at, queue.updated_at]).toEqual(['renamed', FIXED_ISO, FIXED_ISO]);
  });
});
