/**
 * Conformance suite for several writers on one database (two `weft serve` processes, or two
 * replicas in front of one ClickHouse): writes interleaved across two stores converge to what one
 * store applying the same writes gives, and each store reads the other's writes.
 */
import { describe, expect, it } from 'vitest';
import type { OpenStore, OpenStorePair } from '../../testing/tempStore.js';
import type { PriceRecord } from '../CostsStore.js';
import type { FeedbackWrite } from '../FeedbackStore.js';
import type { CallWrite, Store } from '../Store.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from './callWrites.js';

const P = 'acme/multi';

type Step = (s: Store) => Promise<unknown>;

/** The same history, as steps that may run on either store. */
const history: Step[] = [];
const write = (...writes: CallWrite[]) => history.push((s) => s.calls.writeCalls(writes));
for (let i = 0; i < 6; i++) {
  const id = `turn${i}`;
  write(startWrite(P, id, { threadId: `th${i % 2}`, turnId: id, startedAt: T0 + i * 10 * SECOND }));
  write(
    startWrite(P, `${id}-llm`, { parentId: id, traceId: id, threadId: `th${i % 2}`, turnId: id, startedAt: T0 + (i * 10 + 1) * SECOND }),
  );
  // Ends arrive in the opposite order from the starts, the child's before its parent's.
  write(endWrite(P, `${id}-llm`, { endedAt: T0 + (i * 10 + 2) * SECOND, summaryJson: usageSummary('gpt-4o', 10 * i, i) }));
}
write(endWrite(P, 'early', { outputJson: '"before start"' }));
for (let i = 5; i >= 0; i--)
  write(endWrite(P, `turn${i}`, { endedAt: T0 + (i * 10 + 3 + i) * SECOND, exception: i === 4 ? 'boom' : null }));
write(startWrite(P, 'early', { startedAt: T0 + 100 * SECOND }));
history.push((s) => s.calls.updateCallDisplayName({ projectId: P, id: 'turn1', displayName: 'renamed' }));
history.push((s) => s.calls.deleteCalls({ projectId: P, ids: ['turn3'], deletedAt: T0 + 200 * SECOND }));
// A retry of an already applied start and end changes nothing.
write(startWrite(P, 'turn0', { threadId: 'th0', turnId: 'turn0', startedAt: T0 }), endWrite(P, 'turn0', { endedAt: T0 + 3 * SECOND }));

// Feedback and prices: creates (one retried from the other writer), a replace and purges.
const feedback = (id: string, call: string, createdAt: number): FeedbackWrite => ({
  projectId: P,
  id,
  weaveRef: `weave:///${P}/call/${call}`,
  wbUserId: 'alice',
  creator: null,
  createdAt,
  feedbackType: 'wandb.reaction.1',
  payloadJson: JSON.stringify({ emoji: id }),
  annotationRef: null,
  runnableRef: null,
  callRef: null,
  triggerRef: null,
  queueId: null,
});
const price = (id: string): PriceRecord => ({
  id,
  pricingLevel: 'project',
  pricingLevelId: P,
  providerId: 'openai',
  llmId: 'gpt-4o',
  effectiveDate: T0,
  promptTokenCost: 1e-6,
  completionTokenCost: 2e-6,
  promptTokenCostUnit: 'USD',
  completionTokenCostUnit: 'USD',
  createdBy: 'alice',
  createdAt: T0,
});
history.push((s) => s.feedback.createFeedback([feedback('fa', 'turn0', T0 + 1), feedback('fb', 'turn1', T0 + 2)]));
history.push((s) => s.feedback.createFeedback([feedback('fa', 'turn0', T0 + 1)]));
history.push((s) => s.feedback.replaceFeedback({ projectId: P, feedbackId: 'fb', row: feedback('fc', 'turn1', T0 + 3) }));
history.push((s) => s.costs.createPrices([price('pa'), price('pb')]));
history.push((s) => s.feedback.purgeFeedback({ projectId: P, ids: ['fa'] }));
history.push((s) => s.costs.purgePrices({ projectId: P, ids: ['pa'] }));
history.push((s) => s.feedback.createFeedback([feedback('fd', 'turn2', T0 + 4)]));

/** Everything a reader can see of the project. */
async function snapshot(s: Store) {
  const calls = [];
  for await (const c of s.calls.queryCalls({ projectId: P, sortBy: [{ field: 'id', direction: 'asc' }] })) calls.push(c);
  const threads = [];
  for await (const t of s.threads.queryThreads({ projectId: P, sortBy: [{ field: 'thread_id', direction: 'asc' }] })) threads.push(t);
  const projects = await s.projects.listProjects({ entities: 'all', projectIds: [P] });
  const feedbackRows = await s.feedback.queryFeedback({ projectId: P });
  const prices = await s.costs.queryPrices({ projectId: P, fields: ['id', 'llm_id', 'prompt_token_cost'] });
  return { calls, threads, projects, feedbackRows, prices };
}

export function describeMultiWriterConformance(open: OpenStore, openPair: OpenStorePair): void {
  describe('several writers on one database', () => {
    it('converge to the single-writer result, and each reads the other', async () => {
      const single = await open();
      const pair = await openPair();
      try {
        for (const step of history) await step(single.store);
        // Alternate the writers step by step.
        for (let i = 0; i < history.length; i += 2) {
          await history[i]!(pair.a);
          if (history[i + 1]) await history[i + 1]!(pair.b);
        }
        const expected = await snapshot(single.store);
        expect(expected.calls.length).toBe(11); // 13 written, a turn and its child deleted
        expect(expected.feedbackRows.map((f) => f.id)).toEqual(['fc', 'fd']);
        expect(expected.prices.map((p) => p.id)).toEqual(['pb']);
        expect(await snapshot(pair.a)).toEqual(expected);
        expect(await snapshot(pair.b)).toEqual(expected);
      } finally {
        await single.close();
        await pair.close();
      }
    });
  });
}
