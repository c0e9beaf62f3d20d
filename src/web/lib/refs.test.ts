import { describe, expect, it } from 'vitest';
import { describeEdges, parseRef, refHref } from './refs.js';

describe('parseRef', () => {
  it('reads object and op refs with their extra edges', () => {
    expect(parseRef('weave:///acme/bot/object/qa-set:abc123/attr/rows/id/r1')).toEqual({
      kind: 'object',
      entity: 'acme',
      project: 'bot',
      name: 'qa-set',
      digest: 'abc123',
      extra: [
        { edge: 'attr', value: 'rows' },
        { edge: 'id', value: 'r1' },
      ],
    });
    expect(parseRef('weave:///acme/bot/op/generate:d1')).toMatchObject({ kind: 'op', name: 'generate', digest: 'd1', extra: [] });
  });

  it('reads table and call refs', () => {
    expect(parseRef('weave:///acme/bot/table/t1')).toMatchObject({ kind: 'table', digest: 't1' });
    expect(parseRef('weave:///acme/bot/call/0193-ab')).toMatchObject({ kind: 'call', id: '0193-ab' });
  });

  it('decodes percent-encoded names and edge values', () => {
    expect(parseRef('weave:///a/b/object/my%20obj:d/key/a%2Fb')).toMatchObject({ name: 'my obj', extra: [{ edge: 'key', value: 'a/b' }] });
  });

  it('answers null for anything that is not a well-formed ref', () => {
    for (const s of [
      'https://x',
      'weave:///a/b',
      'weave:///a/b/object/nodigest',
      'weave:///a/b/thing/x:y',
      'weave:///a/b/object/x:y/attr',
      'weave:///a/b/object/x:y/index/z',
      'weave:///a/b/object/x:y/nope/1',
    ]) {
      expect(parseRef(s)).toBeNull();
    }
  });
});

describe('refHref', () => {
  it('opens objects at their version, with extra edges as a path', () => {
    expect(refHref(parseRef('weave:///acme/bot/object/qa:d1')!)).toBe('/acme/bot/objects/qa?version=d1');
    expect(refHref(parseRef('weave:///acme/bot/object/qa:d1/attr/rows/index/3')!)).toBe(
      '/acme/bot/objects/qa?version=d1&path=attr%2Frows%2Findex%2F3',
    );
  });

  it('opens tables (at a row) and calls', () => {
    expect(refHref(parseRef('weave:///acme/bot/table/t1/id/r9')!)).toBe('/acme/bot/tables/t1?row=r9');
    expect(refHref(parseRef('weave:///acme/bot/call/c1')!)).toBe('/acme/bot/calls/c1');
  });
});

describe('describeEdges', () => {
  it('reads like a path', () => {
    expect(
      describeEdges([
        { edge: 'attr', value: 'rows' },
        { edge: 'index', value: '3' },
        { edge: 'key', value: 'q' },
      ]),
    ).toBe('rows[3].q');
  });
});
