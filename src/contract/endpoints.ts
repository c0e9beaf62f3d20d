/**
 * The endpoint table: every HTTP endpoint of Weft, once. Server routes, the typed client and
 * the OpenAPI document are all derived from it, so an endpoint exists everywhere or nowhere.
 *
 * Path parameters are written `:name` and must be fields of `req`. For GET and DELETE the
 * remaining request fields travel as query parameters (arrays as repeated keys), otherwise
 * as a JSON body.
 */
import type { z } from 'zod';
import * as accounts from './accounts.js';
import * as leads from './annotationQueueLeads.js';
import * as queues from './annotationQueues.js';
import * as calls from './calls.js';
import * as completions from './completions.js';
import * as costs from './costs.js';
import * as evalResults from './evalResults.js';
import * as runs from './evaluationRuns.js';
import * as evaluations from './evaluations.js';
import * as feedback from './feedback.js';
import * as files from './files.js';
import * as inference from './inference.js';
import * as objects from './objects.js';
import * as otel from './otel.js';
import * as predictions from './predictions.js';
import * as providers from './providers.js';
import * as refs from './refs.js';
import * as retention from './retention.js';
import type { Role } from './roles.js';
import * as scores from './scores.js';
import * as service from './service.js';
import * as sessions from './sessions.js';
import * as stats from './stats.js';
import * as tables from './tables.js';
import * as threads from './threads.js';
import * as v2 from './v2Objects.js';
import * as wandbGraphql from './wandbGraphql.js';
import * as weft from './weft.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** Group name: the reference's endpoint group (docs/api/core.md). */
  readonly group: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly req: Req;
  /** Response body; for streaming endpoints, the schema of one JSON line. */
  readonly res: Res;
  /** Response is newline-delimited JSON, one `res` per line. */
  readonly stream?: boolean;
  /** No credentials needed. */
  readonly public?: boolean;
  /**
   * The answer is not JSON (a file download, bytes): the handler returns a `Response` and
   * the client hands the `Response` back. `res` then only documents the body.
   */
  readonly raw?: boolean;
  /**
   * `'binary'`: the request body is not JSON (an OTLP protobuf export, say). The route layer
   * then validates `req` against path and query parameters only and hands the raw bytes to
   * the handler as `ctx.body`. `'multipart'`: the body is multipart/form-data; its text fields
   * and file parts (as `File`s) are validated with `req` like JSON fields would be.
   */
  readonly body?: 'binary' | 'multipart';
  /**
   * `'handler'`: the handler checks the credentials itself, because the protocol has its own
   * failure format (W&B GraphQL answers a bad key with a GraphQL `errors` body). The route
   * layer then passes `user: null`, like for public endpoints.
   */
  readonly auth?: 'handler';
  /**
   * The least role the caller needs in the project (or entity) the request touches
   * (docs/security/roles.md); `signed-in` for a caller's own account endpoints.
   */
  readonly role?: Role | 'signed-in';
}

/** Groups that are not the Weave trace server: they are not served again under `/traces`. */
export const NOT_TRACE_SERVER_GROUPS: ReadonlySet<string> = new Set(['Weft', 'W&B']);

const def = <const E extends EndpointDef>(e: E): E => e;

// One endpoint per row reads as a table; wrapping the rows would bury the paths.
// prettier-ignore
export const endpoints = {
  // Service
  health: def({ group: 'Service', method: 'GET', path: '/health', summary: 'Health check', req: service.Empty, res: service.HealthRes, public: true }),
  serverInfo: def({ group: 'Service', method: 'GET', path: '/server_info', summary: 'Server information', req: service.Empty, res: service.ServerInfoRes, public: true }),
  version: def({ group: 'Service', method: 'GET', path: '/version', summary: 'Service version', req: service.Empty, res: service.VersionRes, public: true }),
  projectsInfo: def({ group: 'Service', method: 'POST', path: '/service/projects_info', summary: 'Projects the caller can see, with call counts and last activity', req: service.ProjectsInfoReq, res: service.ProjectsInfoRes }),
  geolocate: def({ group: 'Service', method: 'GET', path: '/geolocate', summary: "The caller's location, from what the server knows offline", req: service.GeolocateReq, res: service.GeolocateRes }),

  // Calls
  callStart: def({ group: 'Call', method: 'POST', path: '/call/start', summary: 'Start a call', req: calls.CallStartReq, res: calls.CallStartRes }),
  callEnd: def({ group: 'Call', method: 'POST', path: '/call/end', summary: 'End a call', req: calls.CallEndReq, res: calls.CallEndRes }),
  callUpsertBatch: def({ group: 'Call', method: 'POST', path: '/call/upsert_batch', summary: 'Start and end calls in one batch', req: calls.CallUpsertBatchReq, res: calls.CallUpsertBatchRes }),
  callRead: def({ group: 'Call', method: 'POST', path: '/call/read', summary: 'Read a call', req: calls.CallReadReq, res: calls.CallReadRes }),
  callUpdate: def({ group: 'Call', method: 'POST', path: '/call/update', summary: "Update a call's display name", req: calls.CallUpdateReq, res: calls.CallUpdateRes }),
  callsDelete: def({ group: 'Call', method: 'POST', path: '/calls/delete', summary: 'Soft-delete calls and their descendants', req: calls.CallsDeleteReq, res: calls.CallsDeleteRes }),
  callsQueryStats: def({ group: 'Call', method: 'POST', path: '/calls/query_stats', summary: 'Count the calls matching a query', req: calls.CallsQueryStatsReq, res: calls.CallsQueryStatsRes }),
  callsStreamQuery: def({ group: 'Call', method: 'POST', path: '/calls/stream_query', summary: 'Query calls as JSON lines', req: calls.CallsQueryReq, res: calls.CallSchema, stream: true }),
  callsQuery: def({ group: 'Call', method: 'POST', path: '/calls/query', summary: 'Query calls as one list (legacy; prefer /calls/stream_query)', req: calls.CallsQueryReq, res: calls.CallsQueryRes }),
  callsComplete: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/calls/complete', summary: 'Write finished calls, start and end at once (the Python client\'s "calls complete" mode)', req: calls.CallsUpsertCompleteReq, res: calls.CallsUpsertCompleteRes }),
  callStartV2: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/call/start', summary: 'Start one call ("calls complete" mode, for calls that must show while running)', req: calls.CallStartV2Req, res: calls.CallStartV2Res }),
  callEndV2: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/call/end', summary: 'End one call started with /v2/{entity}/{project}/call/start', req: calls.CallEndV2Req, res: calls.CallEndV2Res }),
  callStats: def({ group: 'Call', method: 'POST', path: '/calls/stats', summary: 'Call and LLM usage metrics over time buckets', req: stats.CallStatsReq, res: stats.CallStatsRes }),
  callsUsage: def({ group: 'Call', method: 'POST', path: '/calls/usage', summary: 'LLM usage per model of calls, each with its descendants', req: stats.CallsUsageReq, res: stats.CallsUsageRes }),
  traceUsage: def({ group: 'Call', method: 'POST', path: '/trace/usage', summary: 'LLM usage per model of every matching call, each with its descendants', req: stats.TraceUsageReq, res: stats.TraceUsageRes }),

  // Threads
  threadsStreamQuery: def({ group: 'Threads', method: 'POST', path: '/threads/stream_query', summary: 'Threads with turn statistics, as JSON lines', req: threads.ThreadsQueryReq, res: threads.ThreadSchema, stream: true }),
  threadsQueryStats: def({ group: 'Threads', method: 'POST', path: '/threads/query_stats', summary: 'Weft: count the threads matching a filter', req: threads.ThreadsQueryStatsReq, res: threads.ThreadsQueryStatsRes }),

  // Feedback
  feedbackCreate: def({ group: 'Feedback', method: 'POST', path: '/feedback/create', summary: 'Create feedback', req: feedback.FeedbackCreateReq, res: feedback.FeedbackCreateRes }),
  feedbackBatchCreate: def({ group: 'Feedback', method: 'POST', path: '/feedback/batch/create', summary: 'Create feedback in batch', req: feedback.FeedbackBatchCreateReq, res: feedback.FeedbackBatchCreateRes }),
  feedbackQuery: def({ group: 'Feedback', method: 'POST', path: '/feedback/query', summary: 'Query feedback', req: feedback.FeedbackQueryReq, res: feedback.FeedbackQueryRes }),
  feedbackPurge: def({ group: 'Feedback', method: 'POST', path: '/feedback/purge', summary: 'Purge feedback by id', req: feedback.FeedbackPurgeReq, res: feedback.FeedbackPurgeRes }),
  feedbackReplace: def({ group: 'Feedback', method: 'POST', path: '/feedback/replace', summary: 'Replace feedback', req: feedback.FeedbackReplaceReq, res: feedback.FeedbackReplaceRes }),
  feedbackStats: def({ group: 'Feedback', method: 'POST', path: '/feedback/stats', summary: 'Feedback statistics over time buckets', req: feedback.FeedbackStatsReq, res: feedback.FeedbackStatsRes }),
  feedbackAggregate: def({ group: 'Feedback', method: 'POST', path: '/feedback/aggregate', summary: 'Scorer feedback counted by time bucket and dimension', req: feedback.FeedbackAggregateReq, res: feedback.FeedbackAggregateRes }),
  feedbackPayloadSchema: def({ group: 'Feedback', method: 'POST', path: '/feedback/payload_schema', summary: 'Leaf paths found in feedback payloads', req: feedback.FeedbackPayloadSchemaReq, res: feedback.FeedbackPayloadSchemaRes }),

  // Costs
  costCreate: def({ group: 'Cost', method: 'POST', path: '/cost/create', summary: 'Create project-level LLM prices', req: costs.CostCreateReq, res: costs.CostCreateRes }),
  costQuery: def({ group: 'Cost', method: 'POST', path: '/cost/query', summary: 'Query project-level LLM prices', req: costs.CostQueryReq, res: costs.CostQueryRes }),
  costPurge: def({ group: 'Cost', method: 'POST', path: '/cost/purge', summary: 'Purge project-level LLM prices by id', req: costs.CostPurgeReq, res: costs.CostPurgeRes }),

  // OpenTelemetry
  otelExport: def({ group: 'OpenTelemetry, refs', method: 'POST', path: '/otel/v1/traces', summary: 'Export OTLP traces (protobuf or JSON); spans become calls', req: otel.OtelExportReq, res: otel.OtelExportRes, body: 'binary' }),

  // Objects, with tags and aliases
  objCreate: def({ group: 'Object', method: 'POST', path: '/obj/create', summary: 'Create an object version', req: objects.ObjCreateReq, res: objects.ObjCreateRes }),
  objRead: def({ group: 'Object', method: 'POST', path: '/obj/read', summary: 'Read an object version (digest, latest, v<N> or alias)', req: objects.ObjReadReq, res: objects.ObjReadRes }),
  objDelete: def({ group: 'Object', method: 'POST', path: '/obj/delete', summary: 'Soft-delete object versions', req: objects.ObjDeleteReq, res: objects.ObjDeleteRes }),
  objsQuery: def({ group: 'Object', method: 'POST', path: '/objs/query', summary: 'Query object versions', req: objects.ObjQueryReq, res: objects.ObjQueryRes }),
  objSetAliases: def({ group: 'Object', method: 'PUT', path: '/objs/:object_id/aliases', summary: 'Point aliases at an object version', req: objects.ObjSetAliasesReq, res: objects.EmptyRes }),
  objRemoveAliases: def({ group: 'Object', method: 'POST', path: '/objs/:object_id/aliases/remove', summary: 'Remove aliases from an object', req: objects.ObjRemoveAliasesReq, res: objects.EmptyRes }),
  objAddTags: def({ group: 'Object', method: 'PUT', path: '/objs/:object_id/versions/:digest/tags', summary: 'Add tags to an object version', req: objects.ObjTagsReq, res: objects.EmptyRes }),
  objRemoveTags: def({ group: 'Object', method: 'POST', path: '/objs/:object_id/versions/:digest/tags/remove', summary: 'Remove tags from an object version', req: objects.ObjTagsReq, res: objects.EmptyRes }),
  tagsList: def({ group: 'Object', method: 'GET', path: '/tags', summary: "The project's tags", req: objects.ProjectScopedReq, res: objects.TagsListRes }),
  aliasesList: def({ group: 'Object', method: 'GET', path: '/aliases', summary: "The project's aliases", req: objects.ProjectScopedReq, res: objects.AliasesListRes }),

  // Tables
  tableCreate: def({ group: 'Tables', method: 'POST', path: '/table/create', summary: 'Create a table from rows', req: tables.TableCreateReq, res: tables.TableCreateRes }),
  tableCreateFromDigests: def({ group: 'Tables', method: 'POST', path: '/table/create_from_digests', summary: 'Create a table from stored row digests', req: tables.TableCreateFromDigestsReq, res: tables.TableCreateFromDigestsRes }),
  tableUpdate: def({ group: 'Tables', method: 'POST', path: '/table/update', summary: 'Derive a table by appending, popping or inserting rows', req: tables.TableUpdateReq, res: tables.TableUpdateRes }),
  tableQuery: def({ group: 'Tables', method: 'POST', path: '/table/query', summary: 'Query the rows of a table', req: tables.TableQueryReq, res: tables.TableQueryRes }),
  tableQueryStream: def({ group: 'Tables', method: 'POST', path: '/table/query_stream', summary: 'Query the rows of a table as JSON lines', req: tables.TableQueryReq, res: tables.TableRowSchema, stream: true }),
  tableQueryStats: def({ group: 'Tables', method: 'POST', path: '/table/query_stats', summary: 'Row count of a table', req: tables.TableQueryStatsReq, res: tables.TableQueryStatsRes }),
  tableQueryStatsBatch: def({ group: 'Tables', method: 'POST', path: '/table/query_stats_batch', summary: 'Row counts and sizes of tables', req: tables.TableQueryStatsBatchReq, res: tables.TableQueryStatsBatchRes }),

  // Files (the Python SDK uses the /files/... spellings)
  fileCreate: def({ group: 'File and image', method: 'POST', path: '/file/create', summary: 'Upload a file (multipart: project_id, file)', req: files.FileCreateReq, res: files.FileCreateRes, body: 'multipart' }),
  filesCreate: def({ group: 'File and image', method: 'POST', path: '/files/create', summary: 'Upload a file (alias of /file/create)', req: files.FileCreateReq, res: files.FileCreateRes, body: 'multipart' }),
  fileContent: def({ group: 'File and image', method: 'POST', path: '/file/content', summary: "A file's bytes", req: files.FileContentReadReq, res: files.FileContentReadRes, raw: true }),
  filesContent: def({ group: 'File and image', method: 'POST', path: '/files/content', summary: "A file's bytes (alias of /file/content)", req: files.FileContentReadReq, res: files.FileContentReadRes, raw: true }),
  filesQueryStats: def({ group: 'File and image', method: 'POST', path: '/files/query_stats', summary: 'Total size of the files in a project', req: files.FilesStatsReq, res: files.FilesStatsRes }),
  filesStats: def({ group: 'File and image', method: 'POST', path: '/files/stats', summary: "Total size of the files in a project (alias of /files/query_stats, the Python client's name)", req: files.FilesStatsReq, res: files.FilesStatsRes }),
  projectStats: def({ group: 'File and image', method: 'POST', path: '/project/stats', summary: "Storage a project's calls, objects, tables and files take", req: files.ProjectStatsReq, res: files.ProjectStatsRes }),

  // Refs
  refsReadBatch: def({ group: 'OpenTelemetry, refs', method: 'POST', path: '/refs/read_batch', summary: 'Resolve weave:/// refs to their values', req: refs.RefsReadBatchReq, res: refs.RefsReadBatchRes }),

  // Annotation queues
  annotationQueueCreate: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues', summary: 'Create an annotation queue', req: queues.AnnotationQueueCreateReq, res: queues.AnnotationQueueCreateRes }),
  annotationQueuesQuery: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/query', summary: 'Annotation queues of a project, as JSON lines', req: queues.AnnotationQueuesQueryReq, res: queues.AnnotationQueueSchema, stream: true }),
  annotationQueuesStats: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/stats', summary: 'Total and completed items per queue', req: queues.AnnotationQueuesStatsReq, res: queues.AnnotationQueuesStatsRes }),
  annotationQueueRead: def({ group: 'Annotation queues', method: 'GET', path: '/annotation_queues/:queue_id', summary: 'Read an annotation queue', req: queues.AnnotationQueueReadReq, res: queues.AnnotationQueueReadRes }),
  annotationQueueUpdate: def({ group: 'Annotation queues', method: 'PUT', path: '/annotation_queues/:queue_id', summary: "Change a queue's name, description or scorer refs", req: queues.AnnotationQueueUpdateReq, res: queues.AnnotationQueueUpdateRes }),
  annotationQueueDelete: def({ group: 'Annotation queues', method: 'DELETE', path: '/annotation_queues/:queue_id', summary: 'Soft-delete an annotation queue (its items are hidden with it)', req: queues.AnnotationQueueDeleteReq, res: queues.AnnotationQueueDeleteRes }),
  annotationQueueAddCalls: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items', summary: 'Add calls to a queue (calls already queued or unknown are skipped)', req: queues.AnnotationQueueAddCallsReq, res: queues.AnnotationQueueAddCallsRes }),
  annotationQueueItemsQuery: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/query', summary: 'Items of a queue with their aggregated state', req: queues.AnnotationQueueItemsQueryReq, res: queues.AnnotationQueueItemsQueryRes }),
  annotatorQueueItemsProgressUpdate: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/progress', summary: "Set the caller's progress on a queue item", req: queues.AnnotatorQueueItemsProgressUpdateReq, res: queues.AnnotatorQueueItemsProgressUpdateRes }),
  annotationQueueItemSubmit: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/submit', summary: "Weft addition: write the caller's annotations on the item's call as feedback and mark the item completed (or skipped), all or nothing", req: queues.AnnotationQueueItemSubmitReq, res: queues.AnnotationQueueItemSubmitRes }),
  annotationQueueNextItem: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/next', summary: 'Weft addition: reserve and return the next item for the caller (one nobody else holds, short of its reviewers)', req: leads.AnnotationQueueNextItemReq, res: leads.AnnotationQueueNextItemRes }),
  annotationQueueAddThreads: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/threads', summary: 'Weft addition: add whole conversations to a queue (answers land on the first turn)', req: leads.AnnotationQueueAddThreadsReq, res: leads.AnnotationQueueAddThreadsRes }),
  annotationQueueResults: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/results', summary: "Weft addition: items in queue order, each with every reviewer's state and current answers", req: leads.AnnotationQueueResultsReq, res: leads.AnnotationQueueResultsRes }),
  annotationQueueSummary: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/summary', summary: 'Weft addition: progress per reviewer and answer distributions per question', req: leads.AnnotationQueueSummaryReq, res: leads.AnnotationQueueSummaryRes }),
  annotationItemHistory: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/history', summary: 'Weft addition: every answer given on an item, current and superseded', req: leads.AnnotationItemHistoryReq, res: leads.AnnotationItemHistoryRes }),
  annotationQueueExport: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/export', summary: "Weft addition: download a queue's answers as JSON lines or CSV", req: leads.AnnotationQueueExportReq, res: leads.AnnotationQueueExportRes, raw: true }),
  annotationQueueSaveDataset: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/dataset', summary: "Weft addition: save a queue's answered items as a Dataset (inputs, output and answers per row)", req: leads.AnnotationQueueDatasetReq, res: leads.AnnotationQueueDatasetRes }),

  // Ops, datasets, scorers, models and evaluations: versioned objects under /v2/:entity/:project
  opCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/ops', summary: 'Create an op (a new version when the content changed)', req: v2.OpCreateReq, res: v2.OpCreateRes }),
  opList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/ops', summary: 'Every version of every op, as JSON lines', req: v2.V2ListReq, res: v2.OpReadRes, stream: true }),
  opRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/ops/:object_id/versions/:digest', summary: 'Read an op version', req: v2.OpReadReq, res: v2.OpReadRes }),
  opDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/ops/:object_id', summary: 'Delete some (digests) or all versions of an op', req: v2.V2DeleteReq, res: v2.V2DeleteRes }),
  datasetCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/datasets', summary: 'Create a dataset (a new version when the content changed)', req: v2.DatasetCreateReq, res: v2.DatasetCreateRes }),
  datasetList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/datasets', summary: 'Every version of every dataset, as JSON lines', req: v2.V2ListReq, res: v2.DatasetReadRes, stream: true }),
  datasetRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/datasets/:object_id/versions/:digest', summary: 'Read a dataset version', req: v2.V2VersionReq, res: v2.DatasetReadRes }),
  datasetDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/datasets/:object_id', summary: 'Delete some (digests) or all versions of a dataset', req: v2.V2DeleteReq, res: v2.V2DeleteRes }),
  scorerCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/scorers', summary: 'Create a scorer (a new version when the content changed)', req: v2.ScorerCreateReq, res: v2.ScorerCreateRes }),
  scorerList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/scorers', summary: 'Every version of every scorer, as JSON lines', req: v2.V2ListReq, res: v2.ScorerReadRes, stream: true }),
  scorerRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/scorers/:object_id/versions/:digest', summary: 'Read a scorer version', req: v2.V2VersionReq, res: v2.ScorerReadRes }),
  scorerDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/scorers/:object_id', summary: 'Delete some (digests) or all versions of a scorer', req: v2.V2DeleteReq, res: v2.V2DeleteRes }),
  modelCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/models', summary: 'Create a model (a new version when the content changed)', req: v2.ModelCreateReq, res: v2.ModelCreateRes }),
  modelList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/models', summary: 'Every version of every model, as JSON lines', req: v2.V2ListReq, res: v2.ModelReadRes, stream: true }),
  modelRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/models/:object_id/versions/:digest', summary: 'Read a model version', req: v2.V2VersionReq, res: v2.ModelReadRes }),
  modelDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/models/:object_id', summary: 'Delete some (digests) or all versions of a model', req: v2.V2DeleteReq, res: v2.V2DeleteRes }),
  evaluationCreate: def({ group: 'Evaluations', method: 'POST', path: '/v2/:entity/:project/evaluations', summary: 'Create an evaluation (a new version when the content changed)', req: v2.EvaluationCreateReq, res: v2.EvaluationCreateRes }),
  evaluationList: def({ group: 'Evaluations', method: 'GET', path: '/v2/:entity/:project/evaluations', summary: 'Every version of every evaluation, as JSON lines', req: v2.V2ListReq, res: v2.EvaluationReadRes, stream: true }),
  evaluationRead: def({ group: 'Evaluations', method: 'GET', path: '/v2/:entity/:project/evaluations/:object_id/versions/:digest', summary: 'Read an evaluation version', req: v2.V2VersionReq, res: v2.EvaluationReadRes }),
  evaluationDelete: def({ group: 'Evaluations', method: 'DELETE', path: '/v2/:entity/:project/evaluations/:object_id', summary: 'Delete some (digests) or all versions of an evaluation', req: v2.V2DeleteReq, res: v2.V2DeleteRes }),

  // Evaluation runs, predictions and scores: calls under /v2/:entity/:project
  evaluationRunCreate: def({ group: 'Evaluation runs', method: 'POST', path: '/v2/:entity/:project/evaluation_runs', summary: 'Start an evaluation run of a model', req: runs.EvaluationRunCreateReq, res: runs.EvaluationRunCreateRes }),
  evaluationRunList: def({ group: 'Evaluation runs', method: 'GET', path: '/v2/:entity/:project/evaluation_runs', summary: 'Evaluation runs, filtered by evaluation, model or id, as JSON lines', req: runs.EvaluationRunListReq, res: runs.EvaluationRunRead, stream: true }),
  evaluationRunRead: def({ group: 'Evaluation runs', method: 'GET', path: '/v2/:entity/:project/evaluation_runs/:evaluation_run_id', summary: 'Read an evaluation run', req: runs.EvaluationRunReadReq, res: runs.EvaluationRunRead }),
  evaluationRunDelete: def({ group: 'Evaluation runs', method: 'DELETE', path: '/v2/:entity/:project/evaluation_runs', summary: 'Delete evaluation runs with their predictions and scores', req: runs.EvaluationRunDeleteReq, res: runs.NumDeletedRes }),
  evaluationRunFinish: def({ group: 'Evaluation runs', method: 'POST', path: '/v2/:entity/:project/evaluation_runs/:evaluation_run_id/finish', summary: 'Finish a run: summarize its scores into an Evaluation.summarize call and the run output', req: runs.EvaluationRunFinishReq, res: runs.SuccessRes }),
  predictionCreate: def({ group: 'Predictions', method: 'POST', path: '/v2/:entity/:project/predictions', summary: 'Record a model prediction, in a run or on its own', req: predictions.PredictionCreateReq, res: predictions.PredictionCreateRes }),
  predictionList: def({ group: 'Predictions', method: 'GET', path: '/v2/:entity/:project/predictions', summary: 'Predictions, optionally of one run, as JSON lines', req: predictions.PredictionListReq, res: predictions.PredictionRead, stream: true }),
  predictionRead: def({ group: 'Predictions', method: 'GET', path: '/v2/:entity/:project/predictions/:prediction_id', summary: 'Read a prediction', req: predictions.PredictionReadReq, res: predictions.PredictionRead }),
  predictionDelete: def({ group: 'Predictions', method: 'DELETE', path: '/v2/:entity/:project/predictions', summary: 'Delete predictions', req: predictions.PredictionDeleteReq, res: runs.NumDeletedRes }),
  predictionFinish: def({ group: 'Predictions', method: 'POST', path: '/v2/:entity/:project/predictions/:prediction_id/finish', summary: 'Finish a prediction: its run row gets the output, scores and latency', req: predictions.PredictionFinishReq, res: runs.SuccessRes }),
  scoreCreate: def({ group: 'Scores', method: 'POST', path: '/v2/:entity/:project/scores', summary: 'Score a prediction (also written as runnable feedback on it)', req: scores.ScoreCreateReq, res: scores.ScoreCreateRes }),
  scoreList: def({ group: 'Scores', method: 'GET', path: '/v2/:entity/:project/scores', summary: 'Scores, optionally of one run, as JSON lines', req: scores.ScoreListReq, res: scores.ScoreRead, stream: true }),
  scoreRead: def({ group: 'Scores', method: 'GET', path: '/v2/:entity/:project/scores/:score_id', summary: 'Read a score', req: scores.ScoreReadReq, res: scores.ScoreRead }),
  scoreDelete: def({ group: 'Scores', method: 'DELETE', path: '/v2/:entity/:project/scores', summary: 'Delete scores and the feedback they wrote', req: scores.ScoreDeleteReq, res: runs.NumDeletedRes }),

  // Evaluation results and orchestration
  evalResultsQuery: def({ group: 'Evaluation results', method: 'POST', path: '/v2/:entity/:project/eval_results/query', summary: 'Evaluation results by dataset row, several evaluations side by side, with summaries', req: evalResults.EvalResultsQueryReq, res: evalResults.EvalResultsQueryRes }),
  evaluationStatus: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/status', summary: 'Progress of an evaluation call: not_found, running (rows done of total), failed or complete', req: evaluations.EvaluationStatusReq, res: evaluations.EvaluationStatusRes }),
  evaluateModel: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/evaluate_model', summary: 'Run an Evaluation of an LLMStructuredCompletionModel with LLMAsAJudgeScorers as a background job; answers the root call id at once', req: evaluations.EvaluateModelReq, res: evaluations.EvaluateModelRes }),
  evaluationRescore: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/rescore', summary: "Score an evaluation run's predictions again with other scorers, as a new run (background job)", req: evaluations.EvaluationRescoreReq, res: evaluations.EvaluationRescoreRes }),
  callsScore: def({ group: 'Call', method: 'POST', path: '/calls/score', summary: 'Apply LLM-judge scorers to calls in a background job; results are stored as runnable feedback on each call', req: evaluations.CallsScoreReq, res: evaluations.CallsScoreRes }),

  // Completions and images through the configured model providers
  completionsCreate: def({ group: 'Completions', method: 'POST', path: '/completions/create', summary: 'A chat completion through a configured provider, tracked as a weave.completions_create call; provider errors come back in response.error', req: completions.CompletionsCreateReq, res: completions.CompletionsCreateRes }),
  completionsCreateStream: def({ group: 'Completions', method: 'POST', path: '/completions/create_stream', summary: 'The same completion streamed: a {"_meta": {"weave_call_id"}} line, then the provider chunks, as JSON lines', req: completions.CompletionsCreateReq, res: completions.CompletionsStreamChunk, stream: true }),
  imageCreate: def({ group: 'File and image', method: 'POST', path: '/image/create', summary: 'Generate images through the OpenAI images API; each image is stored as a Weave Content (files) and the call is tracked', req: completions.ImageGenerationCreateReq, res: completions.ImageGenerationCreateRes }),

  // Inference catalogues: the models this server serves through its instance-wide providers
  inferenceOpenRouterModels: def({ group: 'Inference', method: 'GET', path: '/inference/router/openrouter/models', summary: "The served models in OpenRouter's provider-listing format", req: inference.CatalogueReq, res: inference.OpenRouterModelsRes, public: true }),
  inferenceAnalysisModels: def({ group: 'Inference', method: 'GET', path: '/inference/analysis/artificialanalysis/models', summary: 'The served models for Artificial Analysis (OpenRouter listing format)', req: inference.CatalogueReq, res: inference.OpenRouterModelsRes, public: true }),
  inferenceHardware: def({ group: 'Inference', method: 'GET', path: '/inference/nvidia/v2/hardware', summary: 'Serving options and prices of a model (Bearer <api key> auth)', req: inference.HardwareReq, res: inference.HardwareRes, public: true }),
  inferenceCatalogModels: def({ group: 'Inference', method: 'GET', path: '/inference/catalog/models', summary: 'The catalogue of served models with context windows and prices', req: inference.CatalogueReq, res: inference.CatalogModelsRes, public: true }),

  // Weft's own account endpoints (not part of the Weave interface)
  whoami: def({ group: 'Weft', method: 'GET', path: '/weft/whoami', summary: 'The authenticated user, with their entities', req: service.Empty, res: weft.WhoamiRes }),
  callsExport: def({ group: 'Weft', method: 'POST', path: '/weft/calls/export', summary: 'Download the calls matching a query as JSON lines or CSV', req: calls.CallsExportReq, res: calls.CallsExportRes, raw: true }),
  usersList: def({ group: 'Weft', method: 'GET', path: '/weft/users', summary: 'Every user with their entities (admins only)', req: accounts.UsersListReq, res: accounts.UsersListRes }),
  userCreate: def({ group: 'Weft', method: 'POST', path: '/weft/users', summary: 'Create a user with a password and entities (admins only; 409 when the name is taken)', req: accounts.UserCreateReq, res: accounts.UserCreateRes }),
  apiKeysList: def({ group: 'Weft', method: 'GET', path: '/weft/api_keys', summary: "Your API keys, revoked ones included (admins: anyone's, with username)", req: accounts.ApiKeysListReq, res: accounts.ApiKeysListRes }),
  apiKeyCreate: def({ group: 'Weft', method: 'POST', path: '/weft/api_keys', summary: 'Create an API key for yourself; the answer is the only time the key is shown', req: accounts.ApiKeyCreateReq, res: accounts.ApiKeyCreateRes }),
  apiKeyRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/api_keys/:key_id', summary: "Revoke one of your API keys (admins: anyone's); it fails from the next request on", req: accounts.ApiKeyRevokeReq, res: accounts.ApiKeyRevokeRes }),
  defaultEntitySet: def({ group: 'Weft', method: 'PUT', path: '/weft/default_entity', summary: "Choose where bare project names go (the default entity the SDKs get from /graphql); admins may set anyone's", req: accounts.DefaultEntitySetReq, res: accounts.DefaultEntitySetRes }),
  sessionCreate: def({ group: 'Weft', method: 'POST', path: '/weft/session', summary: 'Sign in to the dashboard: checks the password (throttled) and sets an HttpOnly session cookie', req: sessions.SessionCreateReq, res: sessions.SessionCreateRes, public: true }),
  sessionEnd: def({ group: 'Weft', method: 'DELETE', path: '/weft/session', summary: 'Sign out: ends the session of the cookie sent and removes the cookie', req: sessions.SessionEndReq, res: sessions.SessionEndRes, public: true }),
  sessionsList: def({ group: 'Weft', method: 'GET', path: '/weft/sessions', summary: "Your signed-in sessions, the current one marked (admins: anyone's)", req: sessions.SessionsListReq, res: sessions.SessionsListRes }),
  sessionRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/sessions/:session_id', summary: "End one of your sessions (admins: anyone's); it is signed out from its next request on", req: sessions.SessionRevokeReq, res: sessions.SessionRevokeRes }),
  userSessionsRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/users/:username/sessions', summary: 'End every session of a user (admins only; API keys are not affected)', req: sessions.UserSessionsRevokeReq, res: sessions.UserSessionsRevokeRes }),
  passwordChange: def({ group: 'Weft', method: 'POST', path: '/weft/password', summary: 'Change your password; your other sessions end', req: sessions.PasswordChangeReq, res: sessions.PasswordChangeRes }),
  userPasswordReset: def({ group: 'Weft', method: 'PUT', path: '/weft/users/:username/password', summary: "Set a user's password (admins only); all their sessions end", req: sessions.UserPasswordResetReq, res: sessions.UserPasswordResetRes }),
  pricesList: def({ group: 'Weft', method: 'GET', path: '/weft/prices', summary: "Every LLM price that can apply to a project's calls, its own and the defaults, marking those in force now", req: costs.PricesListReq, res: costs.PricesListRes }),
  providersList: def({ group: 'Weft', method: 'GET', path: '/weft/providers', summary: "The project's model providers and the instance-wide ones (keys masked, never returned)", req: providers.ProvidersListReq, res: providers.ProvidersListRes }),
  providerCreate: def({ group: 'Weft', method: 'POST', path: '/weft/providers', summary: 'Add an OpenAI-compatible provider to the project (key sealed at rest; model prices go to the cost table)', req: providers.ProviderCreateReq, res: providers.ProviderRes }),
  providerUpdate: def({ group: 'Weft', method: 'PUT', path: '/weft/providers/:provider_id', summary: 'Change a project provider; an absent api_key keeps the stored one', req: providers.ProviderUpdateReq, res: providers.ProviderRes }),
  providerDelete: def({ group: 'Weft', method: 'DELETE', path: '/weft/providers/:provider_id', summary: 'Remove a project provider and the prices it added', req: providers.ProviderDeleteReq, res: providers.ProviderDeleteRes }),
  providerTest: def({ group: 'Weft', method: 'POST', path: '/weft/providers/:provider_id/test', summary: "Check a provider's URL and key by listing its models", req: providers.ProviderTestReq, res: providers.ProviderTestRes }),
  modelsList: def({ group: 'Weft', method: 'GET', path: '/weft/models', summary: 'Every model the project can use, as <provider>/<model>, with prices; says what to configure when none', req: providers.ModelsListReq, res: providers.ModelsListRes }),
  callsScoreJob: def({ group: 'Weft', method: 'POST', path: '/weft/calls/score', summary: '/calls/score answering the id of the scoring job, to follow its progress at /weft/jobs/:job_id', req: evaluations.CallsScoreReq, res: evaluations.WeftCallsScoreRes }),
  jobsList: def({ group: 'Weft', method: 'GET', path: '/weft/jobs', summary: "The project's background jobs (evaluations, scoring), newest first", req: providers.JobsListReq, res: providers.JobsListRes }),
  jobRead: def({ group: 'Weft', method: 'GET', path: '/weft/jobs/:job_id', summary: 'One background job with its progress', req: providers.JobReq, res: providers.JobRes }),
  jobCancel: def({ group: 'Weft', method: 'POST', path: '/weft/jobs/:job_id/cancel', summary: 'Cancel a queued or running job', req: providers.JobReq, res: providers.JobRes }),
  retentionRead: def({ group: 'Weft', method: 'GET', path: '/weft/retention', summary: "The retention rule in force for a project (or an entity's default) and where it is set", req: retention.RetentionReadReq, res: retention.RetentionReadRes, role: 'viewer' }),
  retentionSet: def({ group: 'Weft', method: 'PUT', path: '/weft/retention', summary: "Set or remove a project's retention rule or an entity's default (admins of it); older calls go at the next sweep", req: retention.RetentionSetReq, res: retention.RetentionSetRes, role: 'admin' }),

  // W&B's own API, the part the Weave SDKs call before tracing (not a trace-server route)
  wandbGraphql: def({ group: 'W&B', method: 'POST', path: '/graphql', summary: 'W&B GraphQL subset for SDK start-up: viewer (username, defaultEntity, teams), project/model lookup, upsertModel. Basic api:<key>; failures are GraphQL errors (401 UNAUTHENTICATED for a bad key)', req: wandbGraphql.WandbGraphqlReq, res: wandbGraphql.WandbGraphqlRes, raw: true, auth: 'handler' }),
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type ReqOf<K extends EndpointName> = z.input<Endpoints[K]['req']>;
export type ResOf<K extends EndpointName> = z.output<Endpoints[K]['res']>;
