// The thread that copies the WAL back into the database file (walCheckpointer.ts says why).
// Plain JavaScript: it needs no app code, so it starts without the TypeScript loader.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData;
// No busy wait: a TRUNCATE checkpoint waiting for readers would hold the write lock meanwhile,
// and the writer (the server's main thread) would wait with it. Busy now: try next time.
const db = new Database(file, { fileMustExist: true, timeout: 0 });
// PASSIVE never waits for the writer or the readers: it copies what it can and returns.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// A WAL file keeps the size of its biggest burst (SQLite reuses it from the start, it does not
// shrink it): once idle and fully copied, it is cut to zero bytes.
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
let backfilled = -1;
let frames = -1;
const timer = setInterval(() => {
  try {
    const [result] = checkpoint.all();
    // Frames copied so far in this WAL (it restarts from 0 after a complete checkpoint): told
    // only when it moved, so an idle server's main thread is not woken for nothing.
    if (result.checkpointed !== backfilled) parentPort.postMessage({ t: 'checkpointed', frames: result.log, copied: result.checkpointed });
    // Idle: nothing committed since the last tick, and all of it copied.
    const idle = result.log > 0 && result.log === frames && result.checkpointed === result.log;
    backfilled = result.checkpointed;
    frames = result.log;
    if (idle) {
      const [cut] = truncate.all();
      if (cut.busy === 0) {
        frames = backfilled = 0;
        parentPort.postMessage({ t: 'truncated' });
      }
    }
  } catch (err) {
    // The file went away or is locked for longer than a moment: the writer's own checkpoints
    // (its backstop) still bound the WAL. Try again next time.
    parentPort.postMessage({ t: 'failed', message: String(err?.message ?? err) });
  }
}, intervalMs);

parentPort.on('message', (msg) => {
  if (msg !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
