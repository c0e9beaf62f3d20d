/**
 * The calls page's statement as printed (no engine): a list filter tested in PREWHERE and in WHERE
 * binds its values once, so a long id list is not sent twice in the request's parameters.
 */
import { describe, expect, it } from 'vitest';
import { compileCallsList } from './callsQuery.js';

describe('compileCallsList', () => {
  it('binds each list filter once, though PREWHERE and WHERE both test it', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `call-${i}`);
    const { pageSql, params } = compileCallsList({
      projectId: 'acme/p',
      filter: { call_ids: ids, trace_ids: ['t1'] },
      sortBy: [{ field: 'started_at', direction: 'asc' }],
      limit: 10,
      offset: 0,
    });
    const lists = Object.entries(params).filter(([, v]) => Array.isArray(v));
    expect(lists.map(([, v]) => v)).toEqual([['t1'], ids]);
    for (const [name] of lists) expect(pageSql.split(`{${name}:Array(String)}`)).toHaveLength(3);
  });
});
