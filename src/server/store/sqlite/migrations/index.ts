/**
 * SQLite schema migrations, applied in order at start-up inside one transaction each.
 * `PRAGMA user_version` records the last one applied. Never edit a shipped migration:
 * add a new one, in its own file vNN<Name>.ts, listed here.
 */
import type { Migration } from './migration.js';
import { v01AccountsProjectsCalls } from './v01AccountsProjectsCalls.js';
import { v02ObjectsTablesFiles } from './v02ObjectsTablesFiles.js';
import { v03FeedbackPrices } from './v03FeedbackPrices.js';
import { v04ThreadStats } from './v04ThreadStats.js';
import { v05AnnotationQueues } from './v05AnnotationQueues.js';
import { v06CallStatsCells } from './v06CallStatsCells.js';
import { v07QueueCallFields } from './v07QueueCallFields.js';
import { v08DefaultEntity } from './v08DefaultEntity.js';
import { v09CachedTokenPrices } from './v09CachedTokenPrices.js';
import { v10QueueReviewers } from './v10QueueReviewers.js';
import { v11ThreadSearch } from './v11ThreadSearch.js';
import { v12ProvidersJobs } from './v12ProvidersJobs.js';
import { v13Sessions } from './v13Sessions.js';
import { v14MonitorInbox } from './v14MonitorInbox.js';
import { v15ThreadRangeFacts } from './v15ThreadRangeFacts.js';
import { v16UsageRule } from './v16UsageRule.js';
import { v17LoginFailures } from './v17LoginFailures.js';
import { v18LatencyBins } from './v18LatencyBins.js';
import { v19ThreadsByLastUpdated } from './v19ThreadsByLastUpdated.js';
import { v20CallStatsTotals } from './v20CallStatsTotals.js';
import { v21ScorerFeedback } from './v21ScorerFeedback.js';
import { v22Roles } from './v22Roles.js';
import { v25Redaction } from './v25Redaction.js';
import { v23AuditLog } from './v23AuditLog.js';
import { v26OidcIdentities } from './v26OidcIdentities.js';
import { v24Retention } from './v24Retention.js';
import { v27FileRefs } from './v27FileRefs.js';
import { v28ThreadsBeforeStats } from './v28ThreadsBeforeStats.js';
import { v29TraceTreeIndex } from './v29TraceTreeIndex.js';
import { v30CallSearch } from './v30CallSearch.js';
import { v31AlertRules } from './v31AlertRules.js';
import { v32HistoryBlobs } from './v32HistoryBlobs.js';
import { v33CallSearchWithoutPositions } from './v33CallSearchWithoutPositions.js';
import { v34ThreadsByStartDesc } from './v34ThreadsByStartDesc.js';
import { v35ThreadCostsKept } from './v35ThreadCostsKept.js';

export type { Migration } from './migration.js';

// Listed in version order: a migration placed after a higher version would be skipped.
export const migrations: Migration[] = [
  v01AccountsProjectsCalls,
  v02ObjectsTablesFiles,
  v03FeedbackPrices,
  v04ThreadStats,
  v05AnnotationQueues,
  v06CallStatsCells,
  v07QueueCallFields,
  v08DefaultEntity,
  v09CachedTokenPrices,
  v10QueueReviewers,
  v11ThreadSearch,
  v12ProvidersJobs,
  v13Sessions,
  v14MonitorInbox,
  v15ThreadRangeFacts,
  v16UsageRule,
  v17LoginFailures,
  v18LatencyBins,
  v19ThreadsByLastUpdated,
  v20CallStatsTotals,
  v21ScorerFeedback,
  v22Roles,
  v23AuditLog,
  v24Retention,
  v25Redaction,
  v26OidcIdentities,
  v27FileRefs,
  v28ThreadsBeforeStats,
  v29TraceTreeIndex,
  v30CallSearch,
  v31AlertRules,
  v32HistoryBlobs,
  v33CallSearchWithoutPositions,
  v34ThreadsByStartDesc,
  v35ThreadCostsKept,
];
