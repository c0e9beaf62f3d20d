/**
 * Which processes serve a data directory: each `weft serve` process on a SQLite store writes
 * `<data dir>/running/<pid>` while it runs and removes it on close, so `weft restore` can refuse
 * to swap the database under a live server. Several entries are normal (`--workers N`); one
 * whose process is gone (a crash, `kill -9`) is stale and ignored (docs/operations/backup.md).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServerEntry {
  pid: number;
  file: string;
  /** When it started, as written (ISO 8601). */
  startedAt: string;
}

const runningDir = (dataDir: string) => join(dataDir, 'running');

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Records this process as serving `dataDir`; the returned function removes the record (also
 * run at process exit, so a `process.exit` without close leaves nothing behind).
 */
export function markServing(dataDir: string, pid = process.pid): () => void {
  mkdirSync(runningDir(dataDir), { recursive: true, mode: 0o700 });
  const file = join(runningDir(dataDir), String(pid));
  writeFileSync(file, JSON.stringify({ pid, startedAt: new Date().toISOString() }) + '\n', { mode: 0o600 });
  const release = () => {
    process.off('exit', release);
    rmSync(file, { force: true });
  };
  process.once('exit', release);
  return release;
}

/** The live processes serving `dataDir`; stale entries (their process is gone) are removed. */
export function liveServers(dataDir: string, alive: (pid: number) => boolean = processAlive): ServerEntry[] {
  let names: string[];
  try {
    names = readdirSync(runningDir(dataDir));
  } catch {
    return [];
  }
  const live: ServerEntry[] = [];
  for (const name of names) {
    const file = join(runningDir(dataDir), name);
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (!alive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    let startedAt = '?';
    try {
      startedAt = (JSON.parse(readFileSync(file, 'utf8')) as { startedAt?: string }).startedAt ?? '?';
    } catch {
      // Half-written by a process starting right now: it is live all the same.
    }
    live.push({ pid, file, startedAt });
  }
  return live;
}
