/**
 * Which endpoints only read, so they go to the read threads (time budget, stopped when their
 * client leaves). Every GET is a read; these POSTs are reads that carry their query in a body.
 * An endpoint missing here is served by a write thread: still off the main thread, only
 * without the budget, so the list errs on the safe side.
 */
import { endpoints, type EndpointName } from '../../contract/endpoints.js';

export const READ_POSTS = [
  'projectsInfo',
  'callRead',
  'callsQueryStats',
  'callsStreamQuery',
  'callStats',
  'callsUsage',
  'traceUsage',
  'threadsStreamQuery',
  'feedbackQuery',
  'feedbackStats',
  'feedbackPayloadSchema',
  'costQuery',
  'objRead',
  'objsQuery',
  'tableQuery',
  'tableQueryStream',
  'tableQueryStats',
  'tableQueryStatsBatch',
  'fileContent',
  'filesContent',
  'filesQueryStats',
  'refsReadBatch',
  'annotationQueuesQuery',
  'annotationQueuesStats',
  'annotationQueueItemsQuery',
  'evalResultsQuery',
  'evaluationStatus',
  'callsExport',
] as const satisfies readonly EndpointName[];

export const READ_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  ...(Object.keys(endpoints) as EndpointName[]).filter((name) => endpoints[name].method === 'GET'),
  ...READ_POSTS,
]);
