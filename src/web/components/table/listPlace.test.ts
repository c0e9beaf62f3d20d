import { describe, expect, it } from 'vitest';
import { listPlaceKey, readListPlace, writeListPlace } from './listPlace.js';
import { offsetShowingRow } from './useKeptPlace.js';

describe('list places', () => {
  it('are kept per list and URL, patch by patch, without sessionStorage too', () => {
    const key = listPlaceKey('calls', '/e/p/calls', '?sort=name:asc');
    expect(readListPlace(key)).toBeUndefined();
    writeListPlace(key, { scrollTop: 1500 });
    writeListPlace(key, { cursor: 53, cursorId: 'c53' });
    expect(readListPlace(key)).toEqual({ scrollTop: 1500, cursor: 53, cursorId: 'c53' });
    expect(readListPlace(listPlaceKey('calls', '/e/p/calls', ''))).toBeUndefined();
    expect(readListPlace(listPlaceKey('threads', '/e/p/calls', '?sort=name:asc'))).toBeUndefined();
  });

  it('keep the 50 most recently used', () => {
    const key = (n: number) => listPlaceKey('objects', `/e/p${n}/objects`, '');
    for (let n = 0; n < 60; n++) writeListPlace(key(n), { cursor: n });
    writeListPlace(key(10), { scrollTop: 1 });
    writeListPlace(key(60), { cursor: 60 });
    expect(readListPlace(key(10))?.cursor).toBe(10);
    expect(readListPlace(key(11))).toBeUndefined();
    expect(readListPlace(key(12))?.cursor).toBe(12);
  });
});

describe('offsetShowingRow', () => {
  // Rows of 32 px under a 33 px sticky header, in a 400 px high viewport.
  const show = (top: number, index: number) => offsetShowingRow(top, index, 32, 33, 400);

  it('keeps the offset when the row is whole between the header and the bottom edge', () => {
    expect(show(0, 0)).toBe(0);
    expect(show(0, 10)).toBe(0); // 33 + 320 + 32 = 385 ≤ 400
    expect(show(320, 10)).toBe(320); // the row's top is right under the header
  });

  it('scrolls a row below the bottom edge up to it, not under it', () => {
    expect(show(0, 11)).toBe(33 + 12 * 32 - 400);
  });

  it('scrolls a row under the sticky header down to just below it', () => {
    expect(show(1500, 40)).toBe(40 * 32);
    expect(show(321, 10)).toBe(320);
  });
});
