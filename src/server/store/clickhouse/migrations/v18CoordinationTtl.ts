import type { ClickHouseMigration } from './migration.js';

/** A µs column as the DateTime a TTL wants. */
const at = (column: string) => `toDateTime(intDiv(${column}, 1000000))`;

/**
 * How long a job and everything about it (its transitions, heartbeats, progress, cancel) are kept
 * after it was queued: the jobs list shows finished jobs for this long.
 */
export const JOB_RETENTION_DAYS = 30;

export const v18CoordinationTtl: ClickHouseMigration = {
  version: 18,
  name: 'TTLs on jobs, sessions and reservations',
  statements: [
    // A closed job's mark (is_deleted = 1) is what a claim's FINAL scan reads past: gone a day
    // after it was closed, so an idle claim reads nothing. When it is dropped before it merged
    // with the open mark, the job reads as open again and a claim finds it finished in its slots
    // (jobs.ts), at the cost of one row until the 30-day TTL. `at` is when the row was written.
    'ALTER TABLE jobs_open ADD COLUMN IF NOT EXISTS at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))',
    `ALTER TABLE jobs_open MODIFY TTL ${at('at')} + INTERVAL 1 DAY DELETE WHERE is_deleted = 1,
        ${at('at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    // A job's rows go together, 30 days after it was queued (its slots and marks are all later
    // than that, so the job row goes first and nothing reads them afterwards). A job's id is
    // never reused, so its consensus slots cannot be decided again after they are dropped.
    `ALTER TABLE jobs MODIFY TTL ${at('created_at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    `ALTER TABLE job_slots MODIFY TTL ${at('decided_at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    `ALTER TABLE job_heartbeats MODIFY TTL ${at('at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    // Progress versions are the owner's clock in µs (docs/clickhouse.md "Row versions").
    `ALTER TABLE job_progress MODIFY TTL ${at('version')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    `ALTER TABLE job_cancels MODIFY TTL ${at('requested_at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    // An expired session or reservation counts for nothing when read; a day later it is gone.
    // A touch writes a newer row with a later expiry, which outlives the one it replaced.
    `ALTER TABLE sessions MODIFY TTL ${at('expires_at')} + INTERVAL 1 DAY DELETE`,
    `ALTER TABLE annotation_item_reservations MODIFY TTL ${at('expires_at')} + INTERVAL 1 DAY DELETE`,
  ],
};
