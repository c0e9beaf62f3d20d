/**
 * Messages for another thread, gathered and sent as one. A message between threads costs its
 * sender and its receiver about what a small request's own work does (serialising, waking the
 * other thread, dispatching the event), so what one side produces in a burst goes as one: the
 * writes a write thread made in one turn of its event loop (they then share a group commit), the
 * whole responses it finished in that turn, and the main thread's answers to one commit's units.
 * Under evaluation logging that took the units per commit from 1.57 to 4.9 (bench:evaluations).
 */
export class Outbox<T> {
  #items: T[] = [];
  readonly #send: (items: T[]) => void;
  readonly #schedule: (flush: () => void) => void;

  /**
   * `send` gets everything queued since the last send; `schedule` decides how long a first item
   * waits for company: to the end of this turn of the event loop (the default), or to the end of
   * this round of microtasks (`queueMicrotask`).
   */
  constructor(send: (items: T[]) => void, schedule: (flush: () => void) => void = setImmediate) {
    this.#send = send;
    this.#schedule = schedule;
  }

  add(item: T): void {
    if (this.#items.push(item) === 1) this.#schedule(() => this.flush());
  }

  /** Sends what is queued now, if anything: when waiting longer would hold up the receiver. */
  flush(): void {
    const items = this.#items;
    if (!items.length) return;
    this.#items = [];
    this.#send(items);
  }
}
