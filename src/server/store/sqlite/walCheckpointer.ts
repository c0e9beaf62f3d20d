/**
 * WAL checkpoints on a thread of their own. In WAL mode every commit appends its pages to the
 * `-wal` file, and a checkpoint copies them back into the database file and fsyncs it. SQLite
 * runs that checkpoint inside the commit that crosses `wal_autocheckpoint` (1,000 pages by
 * default), that is on the writer's thread: the main thread of `weft serve`, which also answers
 * `/health` and moves every request's bytes. There it was 5 % of the main thread's CPU under
 * evaluation logging (perf, bench:evaluations), and each one waits for an fsync, which on a busy
 * disk takes milliseconds.
 *
 * Here a worker thread runs a PASSIVE checkpoint every CHECKPOINT_INTERVAL_MS on its own
 * connection (walCheckpointWorker.mjs): it copies whatever the writer has committed without
 * waiting for it or for readers. The writer keeps its own automatic checkpoint as a backstop at
 * BACKSTOP_PAGES: a WAL starts over from its beginning only once it has been copied completely,
 * and a PASSIVE checkpoint racing a stream of commits with no pause may never copy the last
 * page, so without the backstop nothing would bound the file. When it runs, the writer's
 * checkpoint only has what this thread has not copied yet. (In bench:ingest, 50,000 calls in
 * 500-call batches, the WAL stayed at or under 4.4 MB: the writes' pauses were enough.)
 *
 * SQLite reuses a WAL from its start but never shrinks the file, so one burst used to leave it
 * at the backstop's ~40 MB for good. Now the writer's `journal_size_limit` trims it at each
 * restart under load, and this thread cuts it to zero once the writes pause (a TRUNCATE
 * checkpoint when everything is copied): docs/performance.md "WAL size".
 */
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 250;
/** Pages (4 KiB) the WAL may reach before the writer checkpoints it itself: ~40 MiB. */
export const BACKSTOP_PAGES = 10_000;
/** The size the writer trims the WAL file to when it starts over from the beginning. */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

export class WalCheckpointer {
  readonly #worker: Worker;
  #exited = false;
  /** What the last checkpoint found: frames in the WAL, and how many it has copied (tests). */
  last: { frames: number; copied: number } | null = null;
  /** Times it cut an idle WAL to zero bytes (tests). */
  truncations = 0;
  /** Checkpoints that failed, and the last reason (tests; the writer's backstop covers them). */
  failures = 0;
  lastFailure: string | null = null;

  constructor(file: string) {
    this.#worker = new Worker(new URL('./walCheckpointWorker.mjs', import.meta.url), {
      workerData: { file, intervalMs: CHECKPOINT_INTERVAL_MS },
      // Not the parent's flags (tsx's loader, a test runner's): the worker is plain JavaScript.
      execArgv: [],
    });
    // A checkpointer never keeps the process alive by itself.
    this.#worker.unref();
    this.#worker.once('exit', () => (this.#exited = true));
    type Message = { t: 'checkpointed'; frames: number; copied: number } | { t: 'truncated' } | { t: 'failed'; message: string };
    this.#worker.on('message', (msg: Message) => {
      if (msg.t === 'checkpointed') this.last = { frames: msg.frames, copied: msg.copied };
      else if (msg.t === 'truncated') this.truncations++;
      else {
        this.failures++;
        this.lastFailure = msg.message;
      }
    });
    // A thread that failed to start or died leaves the writer's backstop checkpoints in charge.
    this.#worker.on('error', (err) => {
      this.failures++;
      this.lastFailure = err.message;
    });
  }

  /** Stops the thread; its connection closes first, so the writer stays the last one open. */
  async stop(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    // Held again until it is gone: a CLI command awaiting this with nothing else left to do
    // would otherwise end (exit code 13, a top-level await that never settled).
    this.#worker.ref();
    this.#worker.postMessage('stop');
    await exited;
  }
}
