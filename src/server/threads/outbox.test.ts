/** What is added in one burst leaves as one message; flush sends at once. */
import { describe, expect, it } from 'vitest';
import { Outbox } from './outbox.js';

const turnEnd = () => new Promise((r) => setImmediate(r));

describe('Outbox', () => {
  it('sends what was added in one turn of the event loop as one message, at its end', async () => {
    const sent: number[][] = [];
    const box = new Outbox<number>((items) => sent.push(items));
    box.add(1);
    box.add(2);
    await Promise.resolve();
    box.add(3);
    expect(sent).toEqual([]);
    await turnEnd();
    expect(sent).toEqual([[1, 2, 3]]);
    box.add(4);
    await turnEnd();
    expect(sent).toEqual([[1, 2, 3], [4]]);
  });

  it('flush sends at once, and the scheduled send then has nothing to send', async () => {
    const sent: number[][] = [];
    const box = new Outbox<number>((items) => sent.push(items));
    box.add(1);
    box.flush();
    expect(sent).toEqual([[1]]);
    box.flush();
    await turnEnd();
    expect(sent).toEqual([[1]]);
  });

  it('with queueMicrotask, sends at the end of the round of microtasks', async () => {
    const sent: string[][] = [];
    const box = new Outbox<string>((items) => sent.push(items), { schedule: queueMicrotask });
    // Two chains of the same depth, as the units of one group commit settle.
    void Promise.resolve().then(() => box.add('a'));
    void Promise.resolve().then(() => box.add('b'));
    await Promise.resolve();
    await Promise.resolve();
    expect(sent).toEqual([['a', 'b']]);
  });

  it('when a send fails, sends each item alone, and hands one that still fails to `failed`', () => {
    const sent: string[][] = [];
    const failed: string[] = [];
    const box = new Outbox<string>(
      (items) => {
        if (items.includes('bad')) throw new Error('cannot be cloned');
        sent.push(items);
      },
      { failed: (item) => failed.push(item) },
    );
    box.add('a');
    box.add('bad');
    box.add('b');
    box.flush();
    expect(sent).toEqual([['a'], ['b']]);
    expect(failed).toEqual(['bad']);
    // Without `failed`, the error is the caller's.
    const strict = new Outbox<string>(() => {
      throw new Error('cannot be cloned');
    });
    strict.add('x');
    expect(() => strict.flush()).toThrow('cannot be cloned');
  });
});
