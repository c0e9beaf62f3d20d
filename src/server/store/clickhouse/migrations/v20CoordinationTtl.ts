import { JOB_RETENTION_DAYS } from '../../JobsStore.js';
import type { ClickHouseMigration } from './migration.js';

/** A µs column as the DateTime a TTL wants. */
const at = (column: string) => `toDateTime(intDiv(${column}, 1000000))`;

export const v20CoordinationTtl: ClickHouseMigration = {
  version: 20,
  name: 'TTLs on jobs, sessions and reservations',
  statements: [
    // A closed job's mark (is_deleted = 1) is what a claim's FINAL scan reads past: gone a day
    // after it was closed, so an idle claim reads nothing. When it is dropped before it merged
    // with the open mark, the job reads as open again and a claim finds it finished in its slots
    // (jobs.ts), at the cost of one row until the 30-day TTL. `at` is when the row was written.
    'ALTER TABLE jobs_open ADD COLUMN IF NOT EXISTS at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))',
    `ALTER TABLE jobs_open MODIFY TTL ${at('at')} + INTERVAL 1 DAY DELETE WHERE is_deleted = 1,
        ${at('at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    // A job's rows go together, 30 days after they were stored. By the engine's clock (a
    // column the writer never sends): the times in the rows are the writers' service clocks,
    // which tests and skewed replicas set anywhere. The job row is stored first, so it goes
    // first and nothing reads the others afterwards; a job's id is never reused, so its
    // consensus slots (decided_at is already the engine's clock) cannot be decided again.
    ...['jobs', 'job_heartbeats', 'job_progress', 'job_cancels'].flatMap((table) => [
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS stored_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))`,
      `ALTER TABLE ${table} MODIFY TTL ${at('stored_at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    ]),
    `ALTER TABLE job_slots MODIFY TTL ${at('decided_at')} + INTERVAL ${JOB_RETENTION_DAYS} DAY DELETE`,
    // An expired session or reservation counts for nothing when read; a day after both its
    // expiry and its storage (the engine's clock, so a row written with a clock far behind
    // still lives a day) it is gone. A touch writes a newer row, which outlives the one it replaced.
    ...['sessions', 'annotation_item_reservations'].flatMap((table) => [
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS stored_at Int64 DEFAULT toUnixTimestamp64Micro(now64(6))`,
      `ALTER TABLE ${table} MODIFY TTL greatest(${at('expires_at')}, ${at('stored_at')}) + INTERVAL 1 DAY DELETE`,
    ]),
  ],
};
