/**
 * Conformance suite for the thread filters that need more than the turns' own statistics: a
 * date range priced and ordered as the turns inside it (threads crossing a bound included), and
 * attribute filters that must hold on one same turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store, ThreadRecord, ThreadsQuery } from '../Store.js';
import { endWrite, SECOND, startWrite, T0, usageSummary } from './callWrites.js';

export function describeThreadsFiltersConformance(open: OpenStore): void {
  describe('ThreadsStore filters conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    // 256 reads: on ClickHouse each is a few engine queries, which a busy shared machine slows past the default 60 s.
    it(
      'gives every thread in a date range the statistics, cost and order of its turns inside, whether it lies inside or crosses a bound',
      { timeout: 240_000 },
      async () => {
        // The oracle: a second project holding only the turns inside the range has, unfiltered,
        // what the first project must answer for the range.
        const ALL = 'acme/range-all';
        const prices = [
          { model: 'gpt-4o', effective: T0 },
          { model: 'gpt-4o', effective: T0 + 500 * SECOND },
        ];
        await store.costs.createPrices(
          prices.map((p, i) => ({
            id: `price-${i}`,
            pricingLevel: 'default',
            pricingLevelId: 'default',
            providerId: 'openai',
            llmId: p.model,
            effectiveDate: p.effective,
            promptTokenCost: 0.001 * (i + 1),
            completionTokenCost: 0.002 * (i + 1),
            promptTokenCostUnit: 'USD',
            completionTokenCostUnit: 'USD',
            createdBy: 'test',
            createdAt: T0,
          })),
        );
        type Turn = { thread: string; id: string; at: number; secs: number | null; failed: boolean; tokens: [number, number] };
        const turns: Turn[] = [];
        for (let th = 0; th < 30; th++) {
          // Threads of 1 to 6 turns, 40 s apart, starting every 37 s: many cross any bound.
          for (let k = 0; k < 1 + (th % 6); k++) {
            const n = th * 7 + k;
            turns.push({
              thread: `r${String(th).padStart(2, '0')}`,
              id: `r${th}-${k}`,
              at: th * 37 + k * 40,
              secs: n % 9 === 4 ? null : 1 + ((n * 13) % 17),
              failed: n % 5 === 0,
              tokens: [10 + (n % 7) * 10, 5 + (n % 3)],
            });
          }
        }
        const write = (project: string, list: Turn[]) =>
          store.calls.writeCalls(
            list.flatMap((t) => {
              const start = startWrite(project, t.id, { threadId: t.thread, turnId: t.id, startedAt: T0 + t.at * SECOND });
              if (t.secs === null) return [start];
              const summaryJson = usageSummary('gpt-4o', ...t.tokens);
              return [
                start,
                endWrite(project, t.id, { endedAt: T0 + (t.at + t.secs) * SECOND, exception: t.failed ? 'x' : null, summaryJson }),
              ];
            }),
          );
        await write(ALL, turns);
        const sorts: ThreadsQuery['sortBy'][] = [
          [{ field: 'p99_turn_duration_ms', direction: 'desc' }],
          [{ field: 'turn_count', direction: 'asc' }],
          [{ field: 'start_time', direction: 'desc' }],
          [{ field: 'total_cost', direction: 'desc' }],
        ];
        const ranges = [
          { after: 300, before: null },
          { after: null, before: 420 },
          { after: 200, before: 700 },
          { after: 480, before: 520 },
        ];
        const collect = async (q: ThreadsQuery) => {
          const out: ThreadRecord[] = [];
          for await (const t of store.threads.queryThreads(q)) out.push(t);
          return out;
        };
        for (const [i, r] of ranges.entries()) {
          const inside = turns.filter((t) => (r.after === null || t.at > r.after) && (r.before === null || t.at < r.before));
          const SOME = `acme/range-${i}`;
          await write(SOME, inside);
          const bounds = {
            afterMicros: r.after === null ? null : T0 + r.after * SECOND,
            beforeMicros: r.before === null ? null : T0 + r.before * SECOND,
          };
          for (const sortBy of sorts) {
            for (const page of [{}, { limit: 4, offset: 3 }, { min: { turn_count: 2 }, limit: 5 }, { max: { total_cost: 0.5 } }]) {
              const expected = await collect({ projectId: SOME, sortBy, ...page });
              const actual = await collect({ projectId: ALL, sortBy, ...page, ...bounds });
              expect(
                actual.map((t) => ({ ...t, totalCost: t.totalCost === null ? null : t.totalCost.toFixed(9) })),
                JSON.stringify({ r, sortBy, page }),
              ).toEqual(expected.map((t) => ({ ...t, totalCost: t.totalCost === null ? null : t.totalCost.toFixed(9) })));
              const counted = await store.threads.countThreads({ projectId: ALL, sortBy, ...page, limit: null, offset: null, ...bounds });
              expect(counted).toBe(await store.threads.countThreads({ projectId: SOME, sortBy, ...page, limit: null, offset: null }));
            }
          }
        }
      },
    );

    it('filters by attribute values of a turn; several values must be on one same turn', async () => {
      const A = 'acme/thread-attributes';
      const at = (thread: string, id: string, attributes: object) =>
        startWrite(A, id, { threadId: thread, turnId: id, attributesJson: JSON.stringify(attributes) });
      await store.calls.writeCalls([
        at('a', 'a1', { env: 'prod', user: { tier: 'gold' } }),
        at('a', 'a2', { env: 'dev', beta: true }),
        at('b', 'b1', { env: 'prod', beta: true, n: 3, tags: ['x', 'y'] }),
        at('c', 'c1', { env: '1', 'dotted.key': 'v' }),
        at('d', 'd1', { env: 1 }),
      ]);
      const ids = async (attributes: Record<string, string | number | boolean>) => {
        const out: string[] = [];
        for await (const t of store.threads.queryThreads({ projectId: A, sortBy: [], attributes })) out.push(t.threadId);
        return out;
      };
      expect(await ids({ env: 'prod' })).toEqual(['a', 'b']);
      expect(await ids({ env: 'dev' })).toEqual(['a']);
      expect(await ids({ 'user.tier': 'gold' })).toEqual(['a']);
      expect(await ids({ beta: true })).toEqual(['a', 'b']);
      expect(await ids({ n: 3, 'tags.1': 'y' })).toEqual(['b']);
      // Text '1' and number 1 are different values; a dotted key is written with an escaped dot.
      expect(await ids({ env: '1' })).toEqual(['c']);
      expect(await ids({ env: 1 })).toEqual(['d']);
      expect(await ids({ 'dotted\\.key': 'v' })).toEqual(['c']);
      // Thread a has env=prod and beta=true, but on different turns.
      expect(await ids({ env: 'prod', beta: true })).toEqual(['b']);
      expect(await store.threads.countThreads({ projectId: A, sortBy: [], attributes: { env: 'prod' } })).toBe(2);
      // A turn's attributes follow its writes and deletion.
      await store.calls.deleteCalls({ projectId: A, ids: ['b1'], deletedAt: T0 + SECOND });
      expect(await ids({ env: 'prod' })).toEqual(['a']);
    });
  });
}
