/**
 * The write turn of one process, shared by the main thread's group commit and the retention
 * sweep's thread (docs/operations/retention.md "The sweep on SQLite"). SQLite has one write lock
 * per file, and a connection that finds it taken waits in SQLite's busy handler, blocking its
 * thread; the main thread must never wait like that for a sweep's batch, since it hands out and
 * answers every request. So the two take turns here first, in shared memory, without messages
 * (a message waits for the main thread's event loop, which under load took longer than a batch):
 * the main thread takes the turn only when it is free and otherwise waits for it asynchronously,
 * its units queued; the sweep's thread blocks (it has nothing else to do) while the main thread
 * commits or wants to, so a write waits for at most one batch.
 */
const FREE = 0;
const MAIN = 1;
const SWEEP = 2;
/** Int32 slots: who holds the turn; whether the main thread waits for it. */
const HOLDER = 0;
const WANTED = 1;
/** How long the sweep's thread sleeps between looks, should a wake-up be missed. */
const LOOK_MS = 50;

/** Node 20 has it (V8); TypeScript types it from lib ES2024 on, past this project's ES2023. */
interface AtomicsWithWaitAsync {
  waitAsync(a: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
}

export class WriteTurns {
  /** Passed to the sweep's thread, which makes its own WriteTurns over it. */
  readonly buffer: SharedArrayBuffer;
  readonly #slots: Int32Array;

  constructor(buffer = new SharedArrayBuffer(8)) {
    this.buffer = buffer;
    this.#slots = new Int32Array(buffer);
  }

  /**
   * Main thread: takes the turn and answers true when it is free; otherwise says it wants it
   * and answers a promise settled once the sweep gives it back (then try again). Never blocks.
   */
  tryMain(): true | Promise<unknown> {
    const s = this.#slots;
    if (Atomics.compareExchange(s, HOLDER, FREE, MAIN) === FREE) return true;
    Atomics.store(s, WANTED, 1);
    const waiting = (Atomics as unknown as AtomicsWithWaitAsync).waitAsync(s, HOLDER, SWEEP);
    return waiting.async ? waiting.value : Promise.resolve();
  }

  releaseMain(): void {
    const s = this.#slots;
    Atomics.store(s, WANTED, 0);
    Atomics.store(s, HOLDER, FREE);
    Atomics.notify(s, WANTED);
    Atomics.notify(s, HOLDER);
  }

  /** The sweep's thread: takes the turn, waiting (blocked) while the main thread has or wants it. */
  takeSweep(): void {
    const s = this.#slots;
    for (;;) {
      if (Atomics.load(s, WANTED) === 1) {
        Atomics.wait(s, WANTED, 1, LOOK_MS);
        continue;
      }
      const holder = Atomics.compareExchange(s, HOLDER, FREE, SWEEP);
      if (holder === FREE) return;
      Atomics.wait(s, HOLDER, holder, LOOK_MS);
    }
  }

  releaseSweep(): void {
    Atomics.store(this.#slots, HOLDER, FREE);
    Atomics.notify(this.#slots, HOLDER);
  }

  /** Whether the sweep's thread holds the turn now (tests). */
  get sweeping(): boolean {
    return Atomics.load(this.#slots, HOLDER) === SWEEP;
  }
}
