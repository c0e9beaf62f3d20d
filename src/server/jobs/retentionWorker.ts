/**
 * The retention sweep's thread (retentionThread.ts says why): its own write connection to the
 * SQLite file, one sweep per request of the main thread, each batch in the process's write turn
 * (threads/writeTurns.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteRetentionStore } from '../store/sqlite/retention.js';
import { SqliteDatabase } from '../store/sqlite/SqliteDatabase.js';
import { installStatsJournal } from '../store/sqlite/statsJournal.js';
import { WriteTurns } from '../threads/writeTurns.js';
import type { FromSweepThread, ToSweepThread } from './retentionThread.js';
import { sweepRetention, type WriteTurn } from './retentionSweep.js';

const port = parentPort!;
const send = (msg: FromSweepThread) => port.postMessage(msg);
// Only what a batch needs: a whole SqliteStore writes at open (seeds), and would take the write
// lock outside any turn. The main thread has migrated the file already. The stats journal is per
// connection (statsJournal.ts): the triggers on `calls` fill this one's as it marks calls deleted.
const db = new SqliteDatabase((workerData as { file: string }).file);
installStatsJournal(db);
// A smaller page cache than the main writer's 64 MB: a batch touches a few thousand pages.
db.writer.pragma('cache_size = -16384');
const store = { retention: new SqliteRetentionStore(db) };

const turns = new WriteTurns((workerData as { turns: SharedArrayBuffer }).turns);
let sweeping = false;
let stopping = false;

const turn: WriteTurn = async (batch) => {
  turns.takeSweep();
  try {
    return await batch();
  } finally {
    turns.releaseSweep();
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
  else if (!stopping) {
    stopping = true;
    if (!sweeping) close();
  }
});
