import type { ClickHouseMigration } from './migration.js';

export const v05JobsMonitorSweeps: ClickHouseMigration = {
  version: 5,
  name: 'jobs and monitor sweeps',
  statements: [
    // A job as enqueued; everything that happens to it is a row in job_slots. An id names one
    // job, so enqueueing it again (a retry, a monitor batch applied twice) collapses.
    `CREATE TABLE IF NOT EXISTS jobs (
        project_id String, id String, kind String, payload String, created_by String, created_at Int64
      ) ENGINE = ReplacingMergeTree ORDER BY (project_id, id)`,
    // A job's transitions (claim, succeeded, failed, cancelled) as a log decided slot by slot
    // (jobs.ts, consensus.ts): every proposal for a slot is inserted with the deduplication
    // token "<job>/<slot>", so one row per slot is stored however many processes race, and
    // the window keeps the tokens of the last 10,000 proposals. A row that still got in (a
    // proposer stalled past the window) loses to the earliest by (decided_at, token).
    `CREATE TABLE IF NOT EXISTS job_slots (
        job_id String, slot UInt32, action LowCardinality(String), owner String, token String, at Int64,
        error Nullable(String), result Nullable(String),
        decided_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))
      ) ENGINE = MergeTree ORDER BY (job_id, slot) SETTINGS non_replicated_deduplication_window = 10000`,
    // Owner-only marks, keyed by the claim (slot) that wrote them, so a late write of a
    // superseded owner never counts for the claim that replaced it.
    `CREATE TABLE IF NOT EXISTS job_heartbeats (job_id String, slot UInt32, at Int64)
        ENGINE = ReplacingMergeTree(at) ORDER BY (job_id, slot)`,
    `CREATE TABLE IF NOT EXISTS job_progress (job_id String, slot UInt32, done Int64, total Nullable(Int64), version UInt64)
        ENGINE = ReplacingMergeTree(version) ORDER BY (job_id, slot)`,
    `CREATE TABLE IF NOT EXISTS job_cancels (job_id String, requested_at Int64) ENGINE = ReplacingMergeTree ORDER BY job_id`,
    // The jobs a claim must look at: a row per job when enqueued, replaced by a deleted row
    // (version 1) by the process that decides the job's final transition, so FINAL reads only
    // the open ones. A close lost in a crash leaves a finished job in the scan, where its
    // decided slots still show it finished.
    `CREATE TABLE IF NOT EXISTS jobs_open (job_id String, project_id String, version UInt8, is_deleted UInt8)
        ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY job_id`,
    // When each part of a call reached a Weft process (its clock, µs): the monitor sweeper
    // finds newly ended calls by these, since ended_at is the client's clock and arrives late.
    // And the monitor sweep that handed the call out (a part of its own, coalesced into the
    // call like a rename), so it is never handed out again, also after a retried end.
    `ALTER TABLE calls ADD COLUMN IF NOT EXISTS start_seen_at Nullable(Int64), ADD COLUMN IF NOT EXISTS end_seen_at Nullable(Int64),
        ADD COLUMN IF NOT EXISTS monitor_swept_slot Nullable(UInt32)`,
    `ALTER TABLE calls ADD INDEX IF NOT EXISTS i_seen greatest(ifNull(start_seen_at, 0), ifNull(end_seen_at, 0)) TYPE minmax GRANULARITY 1`,
    // The monitor sweeps of a project, one decided batch per slot (monitors.ts), as job_slots.
    `CREATE TABLE IF NOT EXISTS monitor_sweeps (
        project_id String, slot UInt32, token String, high Int64, call_ids Array(String), jobs String,
        decided_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))
      ) ENGINE = MergeTree ORDER BY (project_id, slot) SETTINGS non_replicated_deduplication_window = 10000`,
    // Projects whose monitors were all inactive when last swept, up to which Monitor version.
    `CREATE TABLE IF NOT EXISTS monitor_forgotten (project_id String, monitors_up_to Int64)
        ENGINE = ReplacingMergeTree(monitors_up_to) ORDER BY project_id`,
  ],
};
