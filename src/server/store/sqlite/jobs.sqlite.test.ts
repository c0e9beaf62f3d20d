/**
 * SQLite keeps a finished job JOB_RETENTION_DAYS, as ClickHouse's TTL does (its migration 20):
 * older ones are deleted as later jobs finish, at most hourly; queued and running jobs stay (the
 * claims here never count a heartbeat stale).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { JOB_RETENTION_DAYS } from '../JobsStore.js';
import { SqliteStore } from './SqliteStore.js';

const P = 'acme/job-retention';
const HOUR = 3_600_000_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1) * 1000;
const dir = mkdtempSync(join(tmpdir(), 'weft-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('deletes finished jobs past their retention as later jobs finish, at most hourly', async () => {
  const store = new SqliteStore(join(dir, 'weft.sqlite'));
  const run = async (id: string, at: number, finish = true) => {
    await store.jobs.enqueue({ id, projectId: P, kind: 'calls_score', payload: {}, createdBy: 'alice', createdAt: at });
    const claimed = await store.jobs.claimNext({ owner: 'o', now: at, staleBefore: T0, maxAttempts: 3 });
    expect(claimed?.id).toBe(id);
    if (finish) await store.jobs.finish({ id, owner: 'o', status: 'succeeded', error: null, result: null, now: at });
  };
  const ids = async () => (await store.jobs.listJobs({ projectId: P, limit: 100 })).map((j) => j.id).sort();
  try {
    await run('old', T0);
    await run('running', T0 + HOUR, false);
    const due = T0 + JOB_RETENTION_DAYS * DAY; // when 'old' is past its retention
    await run('before', due - HOUR / 2);
    await run('within-the-hour', due + HOUR / 4); // 'old' is due, but the last sweep was 45 min ago
    expect(await ids()).toEqual(['before', 'old', 'running', 'within-the-hour']);
    await run('after-the-hour', due + (3 * HOUR) / 5);
    expect(await ids()).toEqual(['after-the-hour', 'before', 'running', 'within-the-hour']);
  } finally {
    await store.close();
  }
});
