// Entry of a request thread (threads/requestThreads.ts). Weft runs its TypeScript through tsx
// (bin/weft.js), and a worker thread starts without the parent's loader, so it registers tsx
// itself before loading the real entry.
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

lowerPriority(workerData.niceness);
register();
await import('./requestWorker.ts');

/**
 * Runs this thread `by` nice levels below the process (requestThreads.ts NICENESS says why), first,
 * so even its start-up (seconds of module loading) yields to the threads serving requests. On
 * Linux setpriority() applies to the calling thread alone (and the tsx loader thread started
 * next inherits it); elsewhere it would apply to the whole process, so the thread is left as it
 * is. Lowering a priority needs no privilege, but a sandbox may refuse it: then it stays too.
 */
function lowerPriority(by) {
  if (process.platform !== 'linux' || !(by > 0)) return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + by));
  } catch {
    // Not permitted here: the thread runs at the process's priority, as without this.
  }
}
