import { describe, expect, it } from 'vitest';
import { readThreadsView, toThreadsRequest, writeThreadsView } from './threadsViewState.js';

describe('threads view in the URL', () => {
  it('round-trips multi-column sorts, the time range and ids, leaving defaults out', () => {
    const params = new URLSearchParams('sort=p99_turn_duration_ms:desc,turn_count:asc&after=-24h&ids=a,b');
    const view = readThreadsView(params);
    expect(view).toEqual({
      sort: [
        { field: 'p99_turn_duration_ms', direction: 'desc' },
        { field: 'turn_count', direction: 'asc' },
      ],
      after: '-24h',
      before: null,
      ids: ['a', 'b'],
    });
    expect(writeThreadsView(view).toString()).toBe(params.toString().replace(/,/g, '%2C'));
    expect(writeThreadsView(readThreadsView(new URLSearchParams())).toString()).toBe('');
  });

  it('drops unknown and repeated sort fields', () => {
    const view = readThreadsView(new URLSearchParams('sort=bogus:asc,turn_count:desc,turn_count:asc'));
    expect(view.sort).toEqual([{ field: 'turn_count', direction: 'desc' }]);
    expect(readThreadsView(new URLSearchParams('sort=bogus:asc')).sort).toEqual([{ field: 'last_updated', direction: 'desc' }]);
  });

  it('builds the request with resolved datetimes', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    const view = readThreadsView(new URLSearchParams('after=-24h&before=2026-01-01T12:00:00Z&ids=t1'));
    expect(toThreadsRequest({ projectId: 'e/p', view, now })).toEqual({
      project_id: 'e/p',
      filter: { after_datetime: '2026-01-01T00:00:00.000Z', before_datetime: '2026-01-01T12:00:00.000Z', thread_ids: ['t1'] },
      sort_by: [{ field: 'last_updated', direction: 'desc' }],
    });
    expect(toThreadsRequest({ projectId: 'e/p', view: readThreadsView(new URLSearchParams()), now }).filter).toBeNull();
  });
});
