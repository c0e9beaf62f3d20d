/**
 * The retention sweep's thread (retentionThread.ts says why): its own write connection to the
 * SQLite file, one sweep per request of the main thread, each batch in a write turn the main
 * thread hands out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteRetentionStore } from '../store/sqlite/retention.js';
import { SqliteDatabase } from '../store/sqlite/SqliteDatabase.js';
import { installStatsJournal } from '../store/sqlite/statsJournal.js';
import type { FromSweepThread, ToSweepThread } from './retentionThread.js';
import { sweepRetention, type WriteTurn } from './retentionSweep.js';

const port = parentPort!;
const send = (msg: FromSweepThread) => port.postMessage(msg);
// Only what a batch needs: a whole SqliteStore writes at open (seeds), and would take the write
// lock outside any turn. The main thread has migrated the file already. The stats journal is per
// connection (statsJournal.ts): the triggers on `calls` fill this one's as it marks calls deleted.
const db = new SqliteDatabase((workerData as { file: string }).file);
installStatsJournal(db);
const store = { retention: new SqliteRetentionStore(db) };

let granted: (() => void) | null = null;
let sweeping = false;
let stopping = false;

const turn: WriteTurn = async (batch) => {
  await new Promise<void>((resolve) => {
    granted = resolve;
    send({ t: 'turn' });
  });
  try {
    return await batch();
  } finally {
    send({ t: 'done' });
  }
};

async function sweep(now: number): Promise<void> {
  sweeping = true;
  try {
    send({ t: 'swept', report: await sweepRetention(store, { now, turn, stopped: () => stopping }) });
  } catch (err) {
    send({ t: 'failed', message: err instanceof Error ? err.message : String(err) });
  } finally {
    sweeping = false;
    if (stopping) close();
  }
}

function close(): void {
  db.close();
  port.close();
}

port.on('message', (msg: ToSweepThread) => {
  if (msg.t === 'sweep') void sweep(msg.now);
  else if (msg.t === 'go') {
    granted?.();
    granted = null;
  } else if (!stopping) {
    stopping = true;
    if (!sweeping) close();
  }
});
