import { describe, expect, it } from 'vitest';
import type { FeedbackStore, FeedbackWindow } from '../../store/FeedbackStore.js';
import { formatMicros } from '../../core/datetime.js';
import { feedbackStats } from './feedbackStats.js';

const us = (iso: string) => Date.parse(iso) * 1000;

/** A store holding only `rows` (creation time and payload), streamed as the window asks. */
const storeOf = (rows: { at: string; payload: unknown }[]) =>
  ({
    async *feedbackPayloads(w: FeedbackWindow) {
      for (const r of rows) if (us(r.at) >= w.start && us(r.at) < w.end) yield { createdAt: us(r.at), payload: r.payload };
    },
  }) as unknown as FeedbackStore;

describe('feedbackStats', () => {
  it('buckets by local days across DST, as /calls/stats does (Europe/Berlin, spring forward)', async () => {
    const store = storeOf([
      { at: '2024-03-30T12:00:00Z', payload: { score: 1 } },
      // 00:30 on 1 April in Berlin (CEST): the third day, not the 23-hour 31 March.
      { at: '2024-03-31T22:30:00Z', payload: { score: 5 } },
    ]);
    const res = await feedbackStats(
      store,
      {
        project_id: 'alice-co/p',
        start: '2024-03-30T00:00:00+01:00',
        end: '2024-04-02T00:00:00+02:00',
        granularity: 86_400,
        timezone: 'Europe/Berlin',
        metrics: [{ json_path: 'score', value_type: 'numeric', aggregations: ['max'] }],
      },
      us('2025-01-01T00:00:00Z'),
    );
    expect(res.buckets).toEqual([
      { timestamp: formatMicros(us('2024-03-29T23:00:00Z')), count: 1, max_score: 1 },
      { timestamp: formatMicros(us('2024-03-30T23:00:00Z')), count: 0, max_score: null },
      { timestamp: formatMicros(us('2024-03-31T22:00:00Z')), count: 1, max_score: 5 },
    ]);
  });

  it('answers 400 for an unknown time zone', async () => {
    const req = { project_id: 'alice-co/p', start: '2024-01-01T00:00:00Z', timezone: 'Mars/Olympus' };
    await expect(feedbackStats(storeOf([]), req, us('2025-01-01T00:00:00Z'))).rejects.toMatchObject({ status: 400 });
  });
});
