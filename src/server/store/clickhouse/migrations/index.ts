/**
 * ClickHouse schema migrations. `weft migrate` applies them as an explicit deploy step; a
 * replica only checks at start that its database is current (ClickHouseStore.open).
 *
 * ClickHouse has no transactions, so every statement is idempotent (`CREATE ... IF NOT EXISTS`,
 * `ADD COLUMN IF NOT EXISTS`, backfills whose rows merge when inserted twice, with a column
 * list): a migration cut off half-way is run again whole. `weft migrate` runs them under a
 * lock (migrationLock.ts) and records each in `weft_schema_migrations` after its last statement.
 * Never edit a shipped migration: add a new one (its own file vNN<Name>.ts, listed here),
 * expand/contract style, so a rolling deploy can run two Weft versions against one database.
 * SQL here must run on the minimum server version.
 *
 * Layout (docs/clickhouse.md "Tables"): every write is an INSERT that merges
 * order-independently and idempotently. Times are epoch microseconds in Int64 columns, like
 * the SQLite store, so no time zone or DateTime parsing takes part anywhere; JSON payloads are
 * JSON text in String columns.
 */
import type { ClickHouseMigration } from './migration.js';
import { v01AccountsProjectsCalls } from './v01AccountsProjectsCalls.js';
import { v02TablesFiles } from './v02TablesFiles.js';
import { v03Objects } from './v03Objects.js';
import { v04FeedbackPrices } from './v04FeedbackPrices.js';
import { v05JobsMonitorSweeps } from './v05JobsMonitorSweeps.js';
import { v06AnnotationQueuesProviders } from './v06AnnotationQueuesProviders.js';
import { v07CallsByStart } from './v07CallsByStart.js';
import { v08SummaryColumns } from './v08SummaryColumns.js';
import { v09UsageCells } from './v09UsageCells.js';
import { v10ThreadTurns } from './v10ThreadTurns.js';
import { v11ThreadTurnText } from './v11ThreadTurnText.js';
import { v12ScorerFeedback } from './v12ScorerFeedback.js';
import { v13Roles } from './v13Roles.js';
import { v16Redaction } from './v16Redaction.js';
import { v14AuditLog } from './v14AuditLog.js';
import { v17OidcIdentities } from './v17OidcIdentities.js';
import { v15Retention } from './v15Retention.js';
import { v18FileRefs } from './v18FileRefs.js';
import { v19CallViews } from './v19CallViews.js';
import { v20CoordinationTtl } from './v20CoordinationTtl.js';
import { v21CallSearch } from './v21CallSearch.js';
import { v22AlertRules } from './v22AlertRules.js';
import { v23ThreadSnapshots } from './v23ThreadSnapshots.js';
import { v24StatsRollup } from './v24StatsRollup.js';
import { v25CallGrams } from './v25CallGrams.js';
import { v26CallSearchQueue } from './v26CallSearchQueue.js';

export type { ClickHouseMigration } from './migration.js';

// Listed in version order.
export const clickhouseMigrations: ClickHouseMigration[] = [
  v01AccountsProjectsCalls,
  v02TablesFiles,
  v03Objects,
  v04FeedbackPrices,
  v05JobsMonitorSweeps,
  v06AnnotationQueuesProviders,
  v07CallsByStart,
  v08SummaryColumns,
  v09UsageCells,
  v10ThreadTurns,
  v11ThreadTurnText,
  v12ScorerFeedback,
  v13Roles,
  v14AuditLog,
  v15Retention,
  v16Redaction,
  v17OidcIdentities,
  v18FileRefs,
  v19CallViews,
  v20CoordinationTtl,
  v21CallSearch,
  v22AlertRules,
  v23ThreadSnapshots,
  v24StatsRollup,
  v25CallGrams,
  v26CallSearchQueue,
];

/** The newest schema version this build knows. */
export const LATEST_CLICKHOUSE_VERSION = clickhouseMigrations.at(-1)!.version;

export const SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS weft_schema_migrations (version UInt32, name String, applied_at Int64)
  ENGINE = ReplacingMergeTree ORDER BY version`;
