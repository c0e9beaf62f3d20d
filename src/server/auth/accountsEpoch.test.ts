/**
 * The accounts epoch watch (accountsEpoch.ts), one poll at a time: the cache is dropped when the
 * epoch moved and when it could not be read, and kept otherwise. The replicas suite
 * (replicas.clickhouse.test.ts) checks the same end to end across two servers.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { AccountsEpochWatch } from './accountsEpoch.js';

function watch(epochs: Array<number | Error>) {
  let forgotten = 0;
  const w = new AccountsEpochWatch({
    read: async () => {
      const next = epochs.shift();
      if (next === undefined) throw new Error('no more epochs in this test');
      if (next instanceof Error) throw next;
      return next;
    },
    forget: () => forgotten++,
    log: createLogger('silent'),
  });
  return { w, forgotten: () => forgotten };
}

describe('AccountsEpochWatch', () => {
  it('drops the cache only when the epoch moved', async () => {
    const { w, forgotten } = watch([5, 5, 5, 7, 7]);
    await w.start();
    await w.poll();
    await w.poll();
    expect(forgotten()).toBe(0);
    await w.poll();
    expect(forgotten()).toBe(1);
    await w.poll();
    expect(forgotten()).toBe(1);
    await w.stop();
  });

  it('drops the cache on every poll that cannot read the epoch, and not once it reads the same again', async () => {
    const { w, forgotten } = watch([3, new Error('connection refused'), new Error('connection refused'), 3, 3]);
    await w.start();
    await w.poll();
    await w.poll();
    expect(forgotten()).toBe(2);
    await w.poll();
    await w.poll();
    expect(forgotten()).toBe(2);
    await w.stop();
  });

  it('fails the start when the epoch cannot be read', async () => {
    const { w } = watch([new Error('unreachable')]);
    await expect(w.start()).rejects.toThrow('unreachable');
  });
});
