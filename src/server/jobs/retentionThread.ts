/**
 * The retention sweep's own thread (docs/operations/retention.md "The sweep on SQLite"). A
 * batch's refolds of threads and stats cells take tens of milliseconds; run on the main thread's
 * writer they held up everything the main thread does, handing requests to the read threads
 * included (readers' p99 went from 0.4 s to 1.8 s during a sweep). Here the batches run on a
 * worker thread with its own write connection: WAL lets the read threads read beside it, and the
 * main thread's group commit takes turns with it on the write lock (threads/writeTurns.ts), so
 * its writes wait, queued, for at most one batch, and the main thread itself never waits.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { WriteTurns } from '../threads/writeTurns.js';
import { threadEntry } from '../threads/threadEntry.js';
import type { SweepReport } from './retentionSweep.js';

export type ToSweepThread = { t: 'sweep'; now: number } | { t: 'stop' };
export type FromSweepThread = { t: 'swept'; report: SweepReport } | { t: 'failed'; message: string };

/**
 * Nice levels below the main thread (Linux; workerBoot.mjs): the sweep is background work, so
 * under load the threads serving requests get the cores first. Not lower: a batch holds the
 * write lock, and a thread starved of CPU would hold it longer.
 */
const SWEEP_NICENESS = 5;

const isSource = import.meta.url.endsWith('.ts');
const ENTRY = threadEntry(import.meta.url, 'retentionWorker');
const BOOT = new URL(isSource ? '../threads/workerBoot.mjs' : './workerBoot.mjs', import.meta.url);

export class RetentionThread {
  readonly #file: string;
  readonly #turns: WriteTurns;
  readonly #log: Logger;
  #worker: Worker | null = null;
  #pending: { resolve: (r: SweepReport) => void; reject: (err: Error) => void } | null = null;

  /** `turns`: the group commit's, when this process has one (a server on SQLite does). */
  constructor(options: { file: string; turns: WriteTurns | null; log: Logger }) {
    this.#file = options.file;
    this.#turns = options.turns ?? new WriteTurns();
    this.#log = options.log;
  }

  /** One sweep on the thread (started at the first), answering its report. One at a time. */
  sweep(now: number): Promise<SweepReport> {
    const worker = (this.#worker ??= this.#spawn());
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      worker.ref();
      worker.postMessage({ t: 'sweep', now } satisfies ToSweepThread);
    });
  }

  #spawn(): Worker {
    const worker = new Worker(BOOT, {
      workerData: { file: this.#file, turns: this.#turns.buffer, niceness: SWEEP_NICENESS, entry: ENTRY },
      // As the request threads: workerBoot.mjs registers tsx itself for the sources.
      execArgv: process.env.WEFT_THREAD_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    });
    worker.unref();
    worker.on('message', (msg: FromSweepThread) => {
      const pending = this.#pending;
      this.#pending = null;
      worker.unref();
      if (msg.t === 'swept') pending?.resolve(msg.report);
      else pending?.reject(new Error(msg.message));
    });
    worker.on('error', (err) => this.#log.warn(`retention: the sweep's thread failed: ${err.message}`));
    worker.on('exit', () => {
      // A thread that died holding the turn gives it back; a sweep in progress fails (the next
      // tick starts a new thread).
      if (this.#turns.sweeping) this.#turns.releaseSweep();
      this.#pending?.reject(new Error("the retention sweep's thread stopped"));
      this.#pending = null;
      if (this.#worker === worker) this.#worker = null;
    });
    return worker;
  }

  /** Whether a batch holds the write turn now (tests). */
  get batchOpen(): boolean {
    return this.#turns.sweeping;
  }

  /** Stops the thread after its batch in progress; its connection closes before the writer's. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ t: 'stop' } satisfies ToSweepThread);
    await exited;
  }
}
