/**
 * Every Store conformance suite, for one backend. `store/conformance.test.ts` calls this once per
 * backend listed in WEFT_TEST_STORES; a new backend passes when all of these pass unchanged.
 */
import type { TestBackend } from '../../testing/tempStore.js';
import { describeAccountsConformance } from './accounts.conformance.js';
import { describeAnnotationQueuesConformance } from './annotationQueues.conformance.js';
import { describeCallsConformance } from './calls.conformance.js';
import { describeCallsFeedbackQueryConformance } from './callsFeedbackQuery.conformance.js';
import { describeCallsQueryConformance } from './callsQuery.conformance.js';
import { describeCostsConformance } from './costs.conformance.js';
import { describeFeedbackConformance } from './feedback.conformance.js';
import { describeFilesConformance } from './files.conformance.js';
import { describeMultiWriterConformance } from './multiWriter.conformance.js';
import { describeObjectsConformance } from './objects.conformance.js';
import { describeProjectsConformance } from './projects.conformance.js';
import { describeStatsConformance } from './stats.conformance.js';
import { describeTablesConformance } from './tables.conformance.js';
import { describeThreadsConformance } from './threads.conformance.js';
import { describeWriteBatchConformance } from './writeBatch.conformance.js';

export function describeStoreConformance(backend: TestBackend): void {
  const { open } = backend;
  describeCallsConformance(open);
  describeThreadsConformance(open);
  describeProjectsConformance(open);
  describeAccountsConformance(open);
  describeObjectsConformance(open);
  describeTablesConformance(open);
  describeFilesConformance(open);
  describeFeedbackConformance(open);
  describeCostsConformance(open);
  describeStatsConformance(open);
  describeAnnotationQueuesConformance(open);
  describeWriteBatchConformance(open);
  describeMultiWriterConformance(open, backend.openPair);
  // Through HTTP: the query language as the SDKs and the dashboard use it.
  describeCallsQueryConformance(backend);
  describeCallsFeedbackQueryConformance(backend);
}
