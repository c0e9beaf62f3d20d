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
      filters: { search: '', hasErrors: false, ranges: {}, attributes: {} },
      problems: [],
    });
    expect(writeThreadsView(view).toString()).toBe(params.toString().replace(/,/g, '%2C'));
    expect(writeThreadsView(readThreadsView(new URLSearchParams())).toString()).toBe('');
  });

  it('drops unknown and repeated sort fields, reporting the unknown ones', () => {
    const view = readThreadsView(new URLSearchParams('sort=bogus:asc,turn_count:desc,turn_count:asc'));
    expect(view.sort).toEqual([{ field: 'turn_count', direction: 'desc' }]);
    expect(view.problems).toEqual(['sort “bogus:asc”']);
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

  it('round-trips search, errors, ranges and attributes, and turns them into Weft filter fields', () => {
    const params = new URLSearchParams('q=refund&errors=1&turns=2-&p99=-5000&cost=0.01-0.5&attr=env:prod,tier:3,beta:true');
    const view = readThreadsView(params);
    expect(view.problems).toEqual([]);
    expect(view.filters).toEqual({
      search: 'refund',
      hasErrors: true,
      ranges: { turn_count: { min: 2, max: null }, p99_turn_duration_ms: { min: null, max: 5000 }, total_cost: { min: 0.01, max: 0.5 } },
      attributes: { env: 'prod', tier: 3, beta: true },
    });
    expect(readThreadsView(writeThreadsView(view)).filters).toEqual(view.filters);
    expect(toThreadsRequest({ projectId: 'e/p', view, now: 0 }).filter).toEqual({
      search: 'refund',
      min: { error_count: 1, turn_count: 2, total_cost: 0.01 },
      max: { p99_turn_duration_ms: 5000, total_cost: 0.5 },
      attributes: { env: 'prod', tier: 3, beta: true },
    });
  });

  it('reports unreadable filters instead of failing', () => {
    const view = readThreadsView(new URLSearchParams('turns=lots&errors=maybe&attr=novalue&after=yesterday-ish'));
    expect(view.filters.ranges).toEqual({});
    expect(view.after).toBeNull();
    expect(view.problems).toHaveLength(4);
  });
});
