// Entry of a request thread (threads/requestThreads.ts). It loads the thread's code from
// `workerData.entry`: the built bundle (build/server/, `npm run build`), or, when the server runs
// from its TypeScript sources (`weft dev`, tests), the source file through tsx, registered here
// because a worker thread starts without the parent's loader. The build copies this file as is.
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

lowerPriority(workerData.niceness);
if (workerData.entry.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);

/**
 * Runs this thread `by` nice levels below the process (requestThreads.ts NICENESS says why), first,
 * so even its start-up (module loading) yields to the threads serving requests. On Linux
 * setpriority() applies to the calling thread alone (and a tsx loader thread started next
 * inherits it); elsewhere it would apply to the whole process, so the thread is left as it is.
 * Lowering a priority needs no privilege, but a sandbox may refuse it: then it stays too.
 */
function lowerPriority(by) {
  if (process.platform !== 'linux' || !(by > 0)) return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + by));
  } catch {
    // Not permitted here: the thread runs at the process's priority, as without this.
  }
}
