import { describe, expect, it } from 'vitest';
import { clausesFromQuery, fromSavedViewValue, toSavedViewValue } from './savedViewModel.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('toSavedViewValue', () => {
  it('writes a Calls view in the reference’s dumped shape, with the exact search kept', () => {
    const search = '?f=%5B%5B%22op_name%22%2C%22contains%22%2C%22chat%22%5D%5D&sort=started_at%3Aasc&cols=op%2Cinputs.q&since=-24h&roots=0';
    const val = toSavedViewValue({ label: 'Chat', viewType: 'traces', search, now: NOW });
    expect(val).toEqual({
      _type: 'SavedView',
      name: 'Chat',
      description: null,
      view_type: 'traces',
      label: 'Chat',
      definition: {
        _type: 'SavedViewDefinition',
        filter: { trace_roots_only: false },
        query: {
          $expr: {
            $and: [
              { $gte: [{ $getField: 'started_at' }, { $literal: '2026-02-28T12:00:00.000Z' }] },
              { $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'chat' }, case_insensitive: true } },
            ],
          },
        },
        cols: null,
        columns: [
          { _type: 'Column', path: ['op'], label: null, _class_name: 'Column', _bases: ['BaseModel'] },
          { _type: 'Column', path: ['inputs', 'q'], label: null, _class_name: 'Column', _bases: ['BaseModel'] },
        ],
        pin: null,
        sort_by: [{ field: 'started_at', direction: 'asc' }],
        page: null,
        page_size: null,
        charts: null,
        weft_search: search,
        _class_name: 'SavedViewDefinition',
        _bases: ['BaseModel'],
      },
      _class_name: 'SavedView',
      _bases: ['BaseObject', 'BaseModel'],
    });
    expect(fromSavedViewValue('v', val)).toEqual({ objectId: 'v', label: 'Chat', viewType: 'traces', search });
  });
});

describe('views the reference saved', () => {
  it('derives the Calls search from filter, query, sort and columns', () => {
    const item = fromSavedViewValue('ref-view', {
      view_type: 'traces',
      label: 'Slow errors',
      definition: {
        filter: { trace_roots_only: true },
        query: {
          $expr: {
            $and: [
              { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] },
              { $gt: [{ $convert: { input: { $getField: 'summary.weave.latency_ms' }, to: 'double' } }, { $literal: 1000 }] },
            ],
          },
        },
        sort_by: [{ field: 'summary.weave.latency_ms', direction: 'desc' }],
        columns: [{ path: ['op'] }, { path: ['latency'] }],
      },
    });
    const params = new URLSearchParams(item!.search);
    expect(JSON.parse(params.get('f')!)).toEqual([
      ['summary.weave.status', 'eq', 'error'],
      ['summary.weave.latency_ms', 'gt', '1000'],
    ]);
    expect(params.get('sort')).toBe('summary.weave.latency_ms:desc');
    expect(params.get('cols')).toBe('op,latency');
  });

  it('reads negations, lists and a started_at bound as the time range', () => {
    expect(
      clausesFromQuery({
        $expr: {
          $and: [
            { $gte: [{ $getField: 'started_at' }, { $literal: '2026-01-01T00:00:00.000Z' }] },
            { $not: [{ $eq: [{ $getField: 'op_name' }, { $literal: 'x' }] }] },
            { $not: [{ $gte: [{ $getField: 'inputs.n' }, { $literal: 3 }] }] },
            { $in: [{ $getField: 'display_name' }, [{ $literal: 'a' }, { $literal: 'b' }]] },
          ],
        },
      }),
    ).toEqual({
      since: '2026-01-01T00:00:00.000Z',
      clauses: [
        { field: 'op_name', op: 'neq', value: 'x' },
        { field: 'inputs.n', op: 'lt', value: '3' },
        { field: 'display_name', op: 'in', value: 'a, b' },
      ],
    });
  });

  it('leaves out view types Weft has no page for', () => {
    expect(fromSavedViewValue('x', { view_type: 'agents', label: 'x', definition: {} })).toBeNull();
  });
});
