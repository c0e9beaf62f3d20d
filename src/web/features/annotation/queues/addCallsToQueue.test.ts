/** Batching for adding calls: no request carries more than ADD_BATCH ids. */
import { describe, expect, it } from 'vitest';
import { ADD_BATCH, chunk } from './addCallsToQueue.js';

describe('chunk', () => {
  it('splits into batches of at most the given size', () => {
    const ids = Array.from({ length: 2501 }, (_, i) => String(i));
    const batches = chunk(ids, ADD_BATCH);
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 501]);
    expect(batches.flat()).toEqual(ids);
    expect(chunk([], ADD_BATCH)).toEqual([]);
  });
});
