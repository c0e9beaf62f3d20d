/**
 * Every Store conformance suite, for one backend. `store/conformance.*.test.ts` call this once per
 * backend listed in WEFT_TEST_STORES; a new backend passes when all of these pass unchanged.
 */
import type { ConformanceSuite, TestBackend } from '../../testing/tempStore.js';
import { describeAccountsConformance } from './accounts.conformance.js';
import { describeAnnotationQueuesConformance } from './annotationQueues.conformance.js';
import { describeCallsConformance } from './calls.conformance.js';
import { describeCallsSearchConformance } from './callsSearch.conformance.js';
import { describeCallsFeedbackQueryConformance } from './callsFeedbackQuery.conformance.js';
import { describeCallsQueryConformance } from './callsQuery.conformance.js';
import { describeCostsConformance } from './costs.conformance.js';
import { describeFeedbackConformance } from './feedback.conformance.js';
import { describeFilesConformance } from './files.conformance.js';
import { describeIdentitiesConformance } from './identities.conformance.js';
import { describeJobsConformance } from './jobs.conformance.js';
import { describeMonitorsConformance } from './monitors.conformance.js';
import { describeMultiWriterConformance } from './multiWriter.conformance.js';
import { describeObjectsConformance } from './objects.conformance.js';
import { describeOrderIndependenceConformance } from './orderIndependence.conformance.js';
import { describeProjectsConformance } from './projects.conformance.js';
import { describeProvidersConformance } from './providers.conformance.js';
import { describeRedactionConformance } from './redaction.conformance.js';
import { describeAlertsConformance } from './alerts.conformance.js';
import { describeReferenceCallsConformance } from './referenceCalls.conformance.js';
import { describeReferenceEvaluationsConformance } from './referenceEvaluations.conformance.js';
import { describeReferenceFeedbackConformance } from './referenceFeedback.conformance.js';
import { describeReferenceQueuesConformance } from './referenceQueues.conformance.js';
import { describeReferenceObjectsConformance } from './referenceObjects.conformance.js';
import { describeReferenceOtelConformance } from './referenceOtel.conformance.js';
import { describeRetentionConformance } from './retention.conformance.js';
import { describeStatsConformance } from './stats.conformance.js';
import { describeTablesConformance } from './tables.conformance.js';
import { describeThreadsConformance } from './threads.conformance.js';
import { describeThreadsFiltersConformance } from './threadsFilters.conformance.js';
import { describeWriteBatchConformance } from './writeBatch.conformance.js';

/**
 * The suites in three groups, one test file each (store/conformance.*.test.ts), so that a test
 * run spreads them over its workers instead of running one long file last.
 */
export type ConformanceGroup = 'store' | 'http' | 'reference';
const HTTP_SUITES: readonly ConformanceSuite[] = ['callsQuery', 'callsFeedbackQuery'];
const groupOf = (suite: ConformanceSuite): ConformanceGroup =>
  suite.startsWith('reference') ? 'reference' : HTTP_SUITES.includes(suite) ? 'http' : 'store';

export function describeStoreConformance(backend: TestBackend, group: ConformanceGroup): void {
  const { open } = backend;
  const suites: Record<ConformanceSuite, () => void> = {
    calls: () => describeCallsConformance(open),
    callsSearch: () => describeCallsSearchConformance(open),
    threads: () => describeThreadsConformance(open),
    threadsFilters: () => describeThreadsFiltersConformance(open),
    projects: () => describeProjectsConformance(open),
    accounts: () => describeAccountsConformance(open),
    objects: () => describeObjectsConformance(open),
    tables: () => describeTablesConformance(open),
    files: () => describeFilesConformance(open),
    feedback: () => describeFeedbackConformance(open),
    costs: () => describeCostsConformance(open),
    stats: () => describeStatsConformance(open),
    annotationQueues: () => describeAnnotationQueuesConformance(open, backend.openPair),
    providers: () => describeProvidersConformance(open),
    redaction: () => describeRedactionConformance(open),
    identities: () => describeIdentitiesConformance(open),
    jobs: () => describeJobsConformance(open, backend.openPair),
    monitors: () => describeMonitorsConformance(open, backend.openPair),
    writeBatch: () => describeWriteBatchConformance(open),
    multiWriter: () => describeMultiWriterConformance(open, backend.openPair),
    orderIndependence: () => describeOrderIndependenceConformance(open),
    retention: () => describeRetentionConformance(open),
    alerts: () => describeAlertsConformance(open),
    // Through HTTP: the query language as the SDKs and the dashboard use it.
    callsQuery: () => describeCallsQueryConformance(backend),
    callsFeedbackQuery: () => describeCallsFeedbackQueryConformance(backend),
    // The reference's own tests, re-sent over HTTP (docs/reference/coverage.md).
    referenceObjects: () => describeReferenceObjectsConformance(backend),
    referenceFeedback: () => describeReferenceFeedbackConformance(backend),
    referenceCalls: () => describeReferenceCallsConformance(backend),
    referenceEvaluations: () => describeReferenceEvaluationsConformance(backend),
    referenceQueues: () => describeReferenceQueuesConformance(backend),
    referenceOtel: () => describeReferenceOtelConformance(backend),
  };
  for (const [suite, describeSuite] of Object.entries(suites)) if (groupOf(suite as ConformanceSuite) === group) describeSuite();
}
