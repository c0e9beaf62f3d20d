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
import * as agreement from './agreement.js';
import * as alerts from './alerts.js';
import * as audit from './audit.js';
import * as leads from './annotationQueueLeads.js';
import * as queues from './annotationQueues.js';
import * as calls from './calls.js';
import * as completions from './completions.js';
import * as costs from './costs.js';
import * as datasetAdd from './datasetAdd.js';
import * as evalResults from './evalResults.js';
import * as runs from './evaluationRuns.js';
import * as evaluations from './evaluations.js';
import * as feedback from './feedback.js';
import * as files from './files.js';
import * as inference from './inference.js';
import * as mcp from './mcp.js';
import * as objects from './objects.js';
import * as oidc from './oidc.js';
import * as otel from './otel.js';
import * as predictions from './predictions.js';
import * as providers from './providers.js';
import * as redaction from './redaction.js';
import * as refs from './refs.js';
import * as retention from './retention.js';
import type { Role } from './roles.js';
import * as scores from './scores.js';
import * as service from './service.js';
import * as sessions from './sessions.js';
import * as stats from './stats.js';
import * as tables from './tables.js';
import * as threads from './threads.js';
import * as traceOutline from './traceOutline.js';
import * as callPayload from './callPayload.js';
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
   * The least role the caller needs in every project the request touches, checked by the route
   * layer (docs/security/roles.md); `signed-in` for a caller's own account endpoints. Required
   * on every endpoint but the public ones (`def` below makes a missing one a type error).
   */
  readonly role?: Role | 'signed-in';
  /** Where the role applies when it is not simply the request's projects (shown in docs/security/roles.md). */
  readonly roleNote?: string;
}

/** What `def` demands beyond EndpointDef: a role, unless no credentials are needed. */
type RoleRequired<E> = E extends { public: true } ? unknown : { readonly role: Role | 'signed-in' };

/** Groups that are not the Weave trace server: they are not served again under `/traces`. */
export const NOT_TRACE_SERVER_GROUPS: ReadonlySet<string> = new Set(['Weft', 'W&B']);

const def = <const E extends EndpointDef>(e: E & RoleRequired<E>): E => e;

// One endpoint per row reads as a table; wrapping the rows would bury the paths.
// prettier-ignore
export const endpoints = {
  // Service
  health: def({ group: 'Service', method: 'GET', path: '/health', summary: 'Health check', req: service.Empty, res: service.HealthRes, public: true }),
  serverInfo: def({ group: 'Service', method: 'GET', path: '/server_info', summary: 'Server information', req: service.Empty, res: service.ServerInfoRes, public: true }),
  version: def({ group: 'Service', method: 'GET', path: '/version', summary: 'Service version', req: service.Empty, res: service.VersionRes, public: true }),
  projectsInfo: def({ group: 'Service', method: 'POST', path: '/service/projects_info', summary: 'Projects the caller can see, with call counts and last activity', req: service.ProjectsInfoReq, res: service.ProjectsInfoRes, role: 'signed-in', roleNote: 'lists only the projects where the caller has a role (viewer or above)' }),
  geolocate: def({ group: 'Service', method: 'GET', path: '/geolocate', summary: "The caller's location, from what the server knows offline", req: service.GeolocateReq, res: service.GeolocateRes, role: 'signed-in' }),

  // Calls
  callStart: def({ group: 'Call', method: 'POST', path: '/call/start', summary: 'Start a call', req: calls.CallStartReq, res: calls.CallStartRes, role: 'member' }),
  callEnd: def({ group: 'Call', method: 'POST', path: '/call/end', summary: 'End a call', req: calls.CallEndReq, res: calls.CallEndRes, role: 'member' }),
  callUpsertBatch: def({ group: 'Call', method: 'POST', path: '/call/upsert_batch', summary: 'Start and end calls in one batch', req: calls.CallUpsertBatchReq, res: calls.CallUpsertBatchRes, role: 'member' }),
  callRead: def({ group: 'Call', method: 'POST', path: '/call/read', summary: 'Read a call', req: calls.CallReadReq, res: calls.CallReadRes, role: 'viewer' }),
  callUpdate: def({ group: 'Call', method: 'POST', path: '/call/update', summary: "Update a call's display name", req: calls.CallUpdateReq, res: calls.CallUpdateRes, role: 'member' }),
  callsDelete: def({ group: 'Call', method: 'POST', path: '/calls/delete', summary: 'Soft-delete calls and their descendants', req: calls.CallsDeleteReq, res: calls.CallsDeleteRes, role: 'member' }),
  callsQueryStats: def({ group: 'Call', method: 'POST', path: '/calls/query_stats', summary: 'Count the calls matching a query', req: calls.CallsQueryStatsReq, res: calls.CallsQueryStatsRes, role: 'viewer' }),
  callsStreamQuery: def({ group: 'Call', method: 'POST', path: '/calls/stream_query', summary: 'Query calls as JSON lines', req: calls.CallsQueryReq, res: calls.CallSchema, stream: true, role: 'viewer' }),
  callsQuery: def({ group: 'Call', method: 'POST', path: '/calls/query', summary: 'Query calls as one list (legacy; prefer /calls/stream_query)', req: calls.CallsQueryReq, res: calls.CallsQueryRes, role: 'viewer' }),
  callsComplete: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/calls/complete', summary: 'Write finished calls, start and end at once (the Python client\'s "calls complete" mode)', req: calls.CallsUpsertCompleteReq, res: calls.CallsUpsertCompleteRes, role: 'member' }),
  callStartV2: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/call/start', summary: 'Start one call ("calls complete" mode, for calls that must show while running)', req: calls.CallStartV2Req, res: calls.CallStartV2Res, role: 'member' }),
  callEndV2: def({ group: 'Call', method: 'POST', path: '/v2/:entity/:project/call/end', summary: 'End one call started with /v2/{entity}/{project}/call/start', req: calls.CallEndV2Req, res: calls.CallEndV2Res, role: 'member' }),
  callStats: def({ group: 'Call', method: 'POST', path: '/calls/stats', summary: 'Call and LLM usage metrics over time buckets', req: stats.CallStatsReq, res: stats.CallStatsRes, role: 'viewer' }),
  callsUsage: def({ group: 'Call', method: 'POST', path: '/calls/usage', summary: 'LLM usage per model of calls, each with its descendants', req: stats.CallsUsageReq, res: stats.CallsUsageRes, role: 'viewer' }),
  traceUsage: def({ group: 'Call', method: 'POST', path: '/trace/usage', summary: 'LLM usage per model of every matching call, each with its descendants', req: stats.TraceUsageReq, res: stats.TraceUsageRes, role: 'viewer' }),

  // Threads
  threadsStreamQuery: def({ group: 'Threads', method: 'POST', path: '/threads/stream_query', summary: 'Threads with turn statistics, as JSON lines', req: threads.ThreadsQueryReq, res: threads.ThreadSchema, stream: true, role: 'viewer' }),
  threadsQueryStats: def({ group: 'Threads', method: 'POST', path: '/threads/query_stats', summary: 'Weft: count the threads matching a filter', req: threads.ThreadsQueryStatsReq, res: threads.ThreadsQueryStatsRes, role: 'viewer' }),

  // Feedback
  feedbackCreate: def({ group: 'Feedback', method: 'POST', path: '/feedback/create', summary: 'Create feedback', req: feedback.FeedbackCreateReq, res: feedback.FeedbackCreateRes, role: 'annotator' }),
  feedbackBatchCreate: def({ group: 'Feedback', method: 'POST', path: '/feedback/batch/create', summary: 'Create feedback in batch', req: feedback.FeedbackBatchCreateReq, res: feedback.FeedbackBatchCreateRes, role: 'annotator' }),
  feedbackQuery: def({ group: 'Feedback', method: 'POST', path: '/feedback/query', summary: 'Query feedback', req: feedback.FeedbackQueryReq, res: feedback.FeedbackQueryRes, role: 'viewer' }),
  feedbackPurge: def({ group: 'Feedback', method: 'POST', path: '/feedback/purge', summary: 'Purge feedback by id', req: feedback.FeedbackPurgeReq, res: feedback.FeedbackPurgeRes, role: 'member' }),
  feedbackReplace: def({ group: 'Feedback', method: 'POST', path: '/feedback/replace', summary: 'Replace feedback', req: feedback.FeedbackReplaceReq, res: feedback.FeedbackReplaceRes, role: 'annotator' }),
  feedbackStats: def({ group: 'Feedback', method: 'POST', path: '/feedback/stats', summary: 'Feedback statistics over time buckets', req: feedback.FeedbackStatsReq, res: feedback.FeedbackStatsRes, role: 'viewer' }),
  feedbackAggregate: def({ group: 'Feedback', method: 'POST', path: '/feedback/aggregate', summary: 'Scorer feedback counted by time bucket and dimension', req: feedback.FeedbackAggregateReq, res: feedback.FeedbackAggregateRes, role: 'viewer' }),
  feedbackPayloadSchema: def({ group: 'Feedback', method: 'POST', path: '/feedback/payload_schema', summary: 'Leaf paths found in feedback payloads', req: feedback.FeedbackPayloadSchemaReq, res: feedback.FeedbackPayloadSchemaRes, role: 'viewer' }),

  // Costs
  costCreate: def({ group: 'Cost', method: 'POST', path: '/cost/create', summary: 'Create project-level LLM prices', req: costs.CostCreateReq, res: costs.CostCreateRes, role: 'member' }),
  costQuery: def({ group: 'Cost', method: 'POST', path: '/cost/query', summary: 'Query project-level LLM prices', req: costs.CostQueryReq, res: costs.CostQueryRes, role: 'viewer' }),
  costPurge: def({ group: 'Cost', method: 'POST', path: '/cost/purge', summary: 'Purge project-level LLM prices by id', req: costs.CostPurgeReq, res: costs.CostPurgeRes, role: 'member' }),

  // OpenTelemetry
  otelExport: def({ group: 'OpenTelemetry, refs', method: 'POST', path: '/otel/v1/traces', summary: 'Export OTLP traces (protobuf or JSON); spans become calls', req: otel.OtelExportReq, res: otel.OtelExportRes, body: 'binary', role: 'member', roleNote: 'in every project the export names (resource attributes or project_id header)' }),

  // Objects, with tags and aliases
  objCreate: def({ group: 'Object', method: 'POST', path: '/obj/create', summary: 'Create an object version', req: objects.ObjCreateReq, res: objects.ObjCreateRes, role: 'member' }),
  objRead: def({ group: 'Object', method: 'POST', path: '/obj/read', summary: 'Read an object version (digest, latest, v<N> or alias)', req: objects.ObjReadReq, res: objects.ObjReadRes, role: 'viewer' }),
  objDelete: def({ group: 'Object', method: 'POST', path: '/obj/delete', summary: 'Soft-delete object versions', req: objects.ObjDeleteReq, res: objects.ObjDeleteRes, role: 'member' }),
  objsQuery: def({ group: 'Object', method: 'POST', path: '/objs/query', summary: 'Query object versions', req: objects.ObjQueryReq, res: objects.ObjQueryRes, role: 'viewer' }),
  objSetAliases: def({ group: 'Object', method: 'PUT', path: '/objs/:object_id/aliases', summary: 'Point aliases at an object version', req: objects.ObjSetAliasesReq, res: objects.EmptyRes, role: 'member' }),
  objRemoveAliases: def({ group: 'Object', method: 'POST', path: '/objs/:object_id/aliases/remove', summary: 'Remove aliases from an object', req: objects.ObjRemoveAliasesReq, res: objects.EmptyRes, role: 'member' }),
  objAddTags: def({ group: 'Object', method: 'PUT', path: '/objs/:object_id/versions/:digest/tags', summary: 'Add tags to an object version', req: objects.ObjTagsReq, res: objects.EmptyRes, role: 'member' }),
  objRemoveTags: def({ group: 'Object', method: 'POST', path: '/objs/:object_id/versions/:digest/tags/remove', summary: 'Remove tags from an object version', req: objects.ObjTagsReq, res: objects.EmptyRes, role: 'member' }),
  tagsList: def({ group: 'Object', method: 'GET', path: '/tags', summary: "The project's tags", req: objects.ProjectScopedReq, res: objects.TagsListRes, role: 'viewer' }),
  aliasesList: def({ group: 'Object', method: 'GET', path: '/aliases', summary: "The project's aliases", req: objects.ProjectScopedReq, res: objects.AliasesListRes, role: 'viewer' }),

  // Tables
  tableCreate: def({ group: 'Tables', method: 'POST', path: '/table/create', summary: 'Create a table from rows', req: tables.TableCreateReq, res: tables.TableCreateRes, role: 'member' }),
  tableCreateFromDigests: def({ group: 'Tables', method: 'POST', path: '/table/create_from_digests', summary: 'Create a table from stored row digests', req: tables.TableCreateFromDigestsReq, res: tables.TableCreateFromDigestsRes, role: 'member' }),
  tableUpdate: def({ group: 'Tables', method: 'POST', path: '/table/update', summary: 'Derive a table by appending, popping or inserting rows', req: tables.TableUpdateReq, res: tables.TableUpdateRes, role: 'member' }),
  tableQuery: def({ group: 'Tables', method: 'POST', path: '/table/query', summary: 'Query the rows of a table', req: tables.TableQueryReq, res: tables.TableQueryRes, role: 'viewer' }),
  tableQueryStream: def({ group: 'Tables', method: 'POST', path: '/table/query_stream', summary: 'Query the rows of a table as JSON lines', req: tables.TableQueryReq, res: tables.TableRowSchema, stream: true, role: 'viewer' }),
  tableQueryStats: def({ group: 'Tables', method: 'POST', path: '/table/query_stats', summary: 'Row count of a table', req: tables.TableQueryStatsReq, res: tables.TableQueryStatsRes, role: 'viewer' }),
  tableQueryStatsBatch: def({ group: 'Tables', method: 'POST', path: '/table/query_stats_batch', summary: 'Row counts and sizes of tables', req: tables.TableQueryStatsBatchReq, res: tables.TableQueryStatsBatchRes, role: 'viewer' }),

  // Files (the Python SDK uses the /files/... spellings)
  fileCreate: def({ group: 'File and image', method: 'POST', path: '/file/create', summary: 'Upload a file (multipart: project_id, file)', req: files.FileCreateReq, res: files.FileCreateRes, body: 'multipart', role: 'member' }),
  filesCreate: def({ group: 'File and image', method: 'POST', path: '/files/create', summary: 'Upload a file (alias of /file/create)', req: files.FileCreateReq, res: files.FileCreateRes, body: 'multipart', role: 'member' }),
  fileContent: def({ group: 'File and image', method: 'POST', path: '/file/content', summary: "A file's bytes", req: files.FileContentReadReq, res: files.FileContentReadRes, raw: true, role: 'viewer' }),
  filesContent: def({ group: 'File and image', method: 'POST', path: '/files/content', summary: "A file's bytes (alias of /file/content)", req: files.FileContentReadReq, res: files.FileContentReadRes, raw: true, role: 'viewer' }),
  filesQueryStats: def({ group: 'File and image', method: 'POST', path: '/files/query_stats', summary: 'Total size of the files in a project', req: files.FilesStatsReq, res: files.FilesStatsRes, role: 'viewer' }),
  filesStats: def({ group: 'File and image', method: 'POST', path: '/files/stats', summary: "Total size of the files in a project (alias of /files/query_stats, the Python client's name)", req: files.FilesStatsReq, res: files.FilesStatsRes, role: 'viewer' }),
  projectStats: def({ group: 'File and image', method: 'POST', path: '/project/stats', summary: "Storage a project's calls, objects, tables and files take", req: files.ProjectStatsReq, res: files.ProjectStatsRes, role: 'viewer' }),

  // Refs
  refsReadBatch: def({ group: 'OpenTelemetry, refs', method: 'POST', path: '/refs/read_batch', summary: 'Resolve weave:/// refs to their values', req: refs.RefsReadBatchReq, res: refs.RefsReadBatchRes, role: 'viewer', roleNote: 'in every project a ref names' }),

  // Annotation queues
  annotationQueueCreate: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues', summary: 'Create an annotation queue', req: queues.AnnotationQueueCreateReq, res: queues.AnnotationQueueCreateRes, role: 'member' }),
  annotationQueuesQuery: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/query', summary: 'Annotation queues of a project, as JSON lines', req: queues.AnnotationQueuesQueryReq, res: queues.AnnotationQueueSchema, stream: true, role: 'viewer' }),
  annotationQueuesStats: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/stats', summary: 'Total and completed items per queue', req: queues.AnnotationQueuesStatsReq, res: queues.AnnotationQueuesStatsRes, role: 'viewer' }),
  annotationQueueRead: def({ group: 'Annotation queues', method: 'GET', path: '/annotation_queues/:queue_id', summary: 'Read an annotation queue', req: queues.AnnotationQueueReadReq, res: queues.AnnotationQueueReadRes, role: 'viewer' }),
  annotationQueueUpdate: def({ group: 'Annotation queues', method: 'PUT', path: '/annotation_queues/:queue_id', summary: "Change a queue's name, description or scorer refs", req: queues.AnnotationQueueUpdateReq, res: queues.AnnotationQueueUpdateRes, role: 'member' }),
  annotationQueueDelete: def({ group: 'Annotation queues', method: 'DELETE', path: '/annotation_queues/:queue_id', summary: 'Soft-delete an annotation queue (its items are hidden with it)', req: queues.AnnotationQueueDeleteReq, res: queues.AnnotationQueueDeleteRes, role: 'member' }),
  annotationQueueAddCalls: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items', summary: 'Add calls to a queue (calls already queued or unknown are skipped)', req: queues.AnnotationQueueAddCallsReq, res: queues.AnnotationQueueAddCallsRes, role: 'member' }),
  annotationQueueItemsQuery: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/query', summary: 'Items of a queue with their aggregated state', req: queues.AnnotationQueueItemsQueryReq, res: queues.AnnotationQueueItemsQueryRes, role: 'viewer' }),
  annotatorQueueItemsProgressUpdate: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/progress', summary: "Set the caller's progress on a queue item", req: queues.AnnotatorQueueItemsProgressUpdateReq, res: queues.AnnotatorQueueItemsProgressUpdateRes, role: 'annotator' }),
  annotationQueueItemSubmit: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/submit', summary: "Weft addition: write the caller's annotations on the item's call as feedback and mark the item completed (or skipped), all or nothing", req: queues.AnnotationQueueItemSubmitReq, res: queues.AnnotationQueueItemSubmitRes, role: 'annotator' }),
  annotationQueueNextItem: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/next', summary: 'Weft addition: reserve and return the next item for the caller (one nobody else holds, short of its reviewers)', req: leads.AnnotationQueueNextItemReq, res: leads.AnnotationQueueNextItemRes, role: 'annotator' }),
  annotationQueueAddThreads: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/threads', summary: 'Weft addition: add whole conversations to a queue (answers land on the first turn)', req: leads.AnnotationQueueAddThreadsReq, res: leads.AnnotationQueueAddThreadsRes, role: 'member' }),
  annotationQueueResults: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/results', summary: "Weft addition: items in queue order, each with every reviewer's state and current answers", req: leads.AnnotationQueueResultsReq, res: leads.AnnotationQueueResultsRes, role: 'viewer' }),
  annotationQueueSummary: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/summary', summary: 'Weft addition: progress per reviewer and answer distributions per question', req: leads.AnnotationQueueSummaryReq, res: leads.AnnotationQueueSummaryRes, role: 'viewer' }),
  annotationItemHistory: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/items/:item_id/history', summary: 'Weft addition: every answer given on an item, current and superseded', req: leads.AnnotationItemHistoryReq, res: leads.AnnotationItemHistoryRes, role: 'viewer' }),
  annotationQueueExport: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/export', summary: "Weft addition: download a queue's answers as JSON lines or CSV", req: leads.AnnotationQueueExportReq, res: leads.AnnotationQueueExportRes, raw: true, role: 'viewer' }),
  annotationQueueSaveDataset: def({ group: 'Annotation queues', method: 'POST', path: '/annotation_queues/:queue_id/dataset', summary: "Weft addition: save a queue's answered items as a Dataset (inputs, output and answers per row)", req: leads.AnnotationQueueDatasetReq, res: leads.AnnotationQueueDatasetRes, role: 'member' }),

  // Ops, datasets, scorers, models and evaluations: versioned objects under /v2/:entity/:project
  opCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/ops', summary: 'Create an op (a new version when the content changed)', req: v2.OpCreateReq, res: v2.OpCreateRes, role: 'member' }),
  opList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/ops', summary: 'Every version of every op, as JSON lines', req: v2.V2ListReq, res: v2.OpReadRes, stream: true, role: 'viewer' }),
  opRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/ops/:object_id/versions/:digest', summary: 'Read an op version', req: v2.OpReadReq, res: v2.OpReadRes, role: 'viewer' }),
  opDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/ops/:object_id', summary: 'Delete some (digests) or all versions of an op', req: v2.V2DeleteReq, res: v2.V2DeleteRes, role: 'member' }),
  datasetCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/datasets', summary: 'Create a dataset (a new version when the content changed)', req: v2.DatasetCreateReq, res: v2.DatasetCreateRes, role: 'member' }),
  datasetList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/datasets', summary: 'Every version of every dataset, as JSON lines', req: v2.V2ListReq, res: v2.DatasetReadRes, stream: true, role: 'viewer' }),
  datasetRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/datasets/:object_id/versions/:digest', summary: 'Read a dataset version', req: v2.V2VersionReq, res: v2.DatasetReadRes, role: 'viewer' }),
  datasetDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/datasets/:object_id', summary: 'Delete some (digests) or all versions of a dataset', req: v2.V2DeleteReq, res: v2.V2DeleteRes, role: 'member' }),
  datasetAddFromTraces: def({ group: 'Weft', method: 'POST', path: '/datasets/add_from_traces', summary: 'Weft addition: append rows made from calls, threads or annotation queue items (a column mapping over their inputs, output, feedback and answers) to a dataset as a new version, or preview them', req: datasetAdd.DatasetAddFromTracesReq, res: datasetAdd.DatasetAddFromTracesRes, role: 'member' }),
  scorerCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/scorers', summary: 'Create a scorer (a new version when the content changed)', req: v2.ScorerCreateReq, res: v2.ScorerCreateRes, role: 'member' }),
  scorerList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/scorers', summary: 'Every version of every scorer, as JSON lines', req: v2.V2ListReq, res: v2.ScorerReadRes, stream: true, role: 'viewer' }),
  scorerRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/scorers/:object_id/versions/:digest', summary: 'Read a scorer version', req: v2.V2VersionReq, res: v2.ScorerReadRes, role: 'viewer' }),
  scorerDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/scorers/:object_id', summary: 'Delete some (digests) or all versions of a scorer', req: v2.V2DeleteReq, res: v2.V2DeleteRes, role: 'member' }),
  modelCreate: def({ group: 'Ops, datasets, scorers, models', method: 'POST', path: '/v2/:entity/:project/models', summary: 'Create a model (a new version when the content changed)', req: v2.ModelCreateReq, res: v2.ModelCreateRes, role: 'member' }),
  modelList: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/models', summary: 'Every version of every model, as JSON lines', req: v2.V2ListReq, res: v2.ModelReadRes, stream: true, role: 'viewer' }),
  modelRead: def({ group: 'Ops, datasets, scorers, models', method: 'GET', path: '/v2/:entity/:project/models/:object_id/versions/:digest', summary: 'Read a model version', req: v2.V2VersionReq, res: v2.ModelReadRes, role: 'viewer' }),
  modelDelete: def({ group: 'Ops, datasets, scorers, models', method: 'DELETE', path: '/v2/:entity/:project/models/:object_id', summary: 'Delete some (digests) or all versions of a model', req: v2.V2DeleteReq, res: v2.V2DeleteRes, role: 'member' }),
  evaluationCreate: def({ group: 'Evaluations', method: 'POST', path: '/v2/:entity/:project/evaluations', summary: 'Create an evaluation (a new version when the content changed)', req: v2.EvaluationCreateReq, res: v2.EvaluationCreateRes, role: 'member' }),
  evaluationList: def({ group: 'Evaluations', method: 'GET', path: '/v2/:entity/:project/evaluations', summary: 'Every version of every evaluation, as JSON lines', req: v2.V2ListReq, res: v2.EvaluationReadRes, stream: true, role: 'viewer' }),
  evaluationRead: def({ group: 'Evaluations', method: 'GET', path: '/v2/:entity/:project/evaluations/:object_id/versions/:digest', summary: 'Read an evaluation version', req: v2.V2VersionReq, res: v2.EvaluationReadRes, role: 'viewer' }),
  evaluationDelete: def({ group: 'Evaluations', method: 'DELETE', path: '/v2/:entity/:project/evaluations/:object_id', summary: 'Delete some (digests) or all versions of an evaluation', req: v2.V2DeleteReq, res: v2.V2DeleteRes, role: 'member' }),

  // Evaluation runs, predictions and scores: calls under /v2/:entity/:project
  evaluationRunCreate: def({ group: 'Evaluation runs', method: 'POST', path: '/v2/:entity/:project/evaluation_runs', summary: 'Start an evaluation run of a model', req: runs.EvaluationRunCreateReq, res: runs.EvaluationRunCreateRes, role: 'member' }),
  evaluationRunList: def({ group: 'Evaluation runs', method: 'GET', path: '/v2/:entity/:project/evaluation_runs', summary: 'Evaluation runs, filtered by evaluation, model or id, as JSON lines', req: runs.EvaluationRunListReq, res: runs.EvaluationRunRead, stream: true, role: 'viewer' }),
  evaluationRunRead: def({ group: 'Evaluation runs', method: 'GET', path: '/v2/:entity/:project/evaluation_runs/:evaluation_run_id', summary: 'Read an evaluation run', req: runs.EvaluationRunReadReq, res: runs.EvaluationRunRead, role: 'viewer' }),
  evaluationRunDelete: def({ group: 'Evaluation runs', method: 'DELETE', path: '/v2/:entity/:project/evaluation_runs', summary: 'Delete evaluation runs with their predictions and scores', req: runs.EvaluationRunDeleteReq, res: runs.NumDeletedRes, role: 'member' }),
  evaluationRunFinish: def({ group: 'Evaluation runs', method: 'POST', path: '/v2/:entity/:project/evaluation_runs/:evaluation_run_id/finish', summary: 'Finish a run: summarize its scores into an Evaluation.summarize call and the run output', req: runs.EvaluationRunFinishReq, res: runs.SuccessRes, role: 'member' }),
  predictionCreate: def({ group: 'Predictions', method: 'POST', path: '/v2/:entity/:project/predictions', summary: 'Record a model prediction, in a run or on its own', req: predictions.PredictionCreateReq, res: predictions.PredictionCreateRes, role: 'member' }),
  predictionList: def({ group: 'Predictions', method: 'GET', path: '/v2/:entity/:project/predictions', summary: 'Predictions, optionally of one run, as JSON lines', req: predictions.PredictionListReq, res: predictions.PredictionRead, stream: true, role: 'viewer' }),
  predictionRead: def({ group: 'Predictions', method: 'GET', path: '/v2/:entity/:project/predictions/:prediction_id', summary: 'Read a prediction', req: predictions.PredictionReadReq, res: predictions.PredictionRead, role: 'viewer' }),
  predictionDelete: def({ group: 'Predictions', method: 'DELETE', path: '/v2/:entity/:project/predictions', summary: 'Delete predictions', req: predictions.PredictionDeleteReq, res: runs.NumDeletedRes, role: 'member' }),
  predictionFinish: def({ group: 'Predictions', method: 'POST', path: '/v2/:entity/:project/predictions/:prediction_id/finish', summary: 'Finish a prediction: its run row gets the output, scores and latency', req: predictions.PredictionFinishReq, res: runs.SuccessRes, role: 'member' }),
  scoreCreate: def({ group: 'Scores', method: 'POST', path: '/v2/:entity/:project/scores', summary: 'Score a prediction (also written as runnable feedback on it)', req: scores.ScoreCreateReq, res: scores.ScoreCreateRes, role: 'member' }),
  scoreList: def({ group: 'Scores', method: 'GET', path: '/v2/:entity/:project/scores', summary: 'Scores, optionally of one run, as JSON lines', req: scores.ScoreListReq, res: scores.ScoreRead, stream: true, role: 'viewer' }),
  scoreRead: def({ group: 'Scores', method: 'GET', path: '/v2/:entity/:project/scores/:score_id', summary: 'Read a score', req: scores.ScoreReadReq, res: scores.ScoreRead, role: 'viewer' }),
  scoreDelete: def({ group: 'Scores', method: 'DELETE', path: '/v2/:entity/:project/scores', summary: 'Delete scores and the feedback they wrote', req: scores.ScoreDeleteReq, res: runs.NumDeletedRes, role: 'member' }),

  // Evaluation results and orchestration
  evalResultsQuery: def({ group: 'Evaluation results', method: 'POST', path: '/v2/:entity/:project/eval_results/query', summary: 'Evaluation results by dataset row, several evaluations side by side, with summaries', req: evalResults.EvalResultsQueryReq, res: evalResults.EvalResultsQueryRes, role: 'viewer' }),
  evaluationStatus: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/status', summary: 'Progress of an evaluation call: not_found, running (rows done of total), failed or complete', req: evaluations.EvaluationStatusReq, res: evaluations.EvaluationStatusRes, role: 'viewer' }),
  evaluateModel: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/evaluate_model', summary: 'Run an Evaluation of an LLMStructuredCompletionModel with LLMAsAJudgeScorers as a background job; answers the root call id at once', req: evaluations.EvaluateModelReq, res: evaluations.EvaluateModelRes, role: 'member' }),
  evaluationRescore: def({ group: 'Evaluations', method: 'POST', path: '/evaluations/rescore', summary: "Score an evaluation run's predictions again with other scorers, as a new run (background job)", req: evaluations.EvaluationRescoreReq, res: evaluations.EvaluationRescoreRes, role: 'member' }),
  callsScore: def({ group: 'Call', method: 'POST', path: '/calls/score', summary: 'Apply LLM-judge scorers to calls in a background job; results are stored as runnable feedback on each call', req: evaluations.CallsScoreReq, res: evaluations.CallsScoreRes, role: 'member' }),

  // Completions and images through the configured model providers
  completionsCreate: def({ group: 'Completions', method: 'POST', path: '/completions/create', summary: 'A chat completion through a configured provider, tracked as a weave.completions_create call; provider errors come back in response.error', req: completions.CompletionsCreateReq, res: completions.CompletionsCreateRes, role: 'member' }),
  completionsCreateStream: def({ group: 'Completions', method: 'POST', path: '/completions/create_stream', summary: 'The same completion streamed: a {"_meta": {"weave_call_id"}} line, then the provider chunks, as JSON lines', req: completions.CompletionsCreateReq, res: completions.CompletionsStreamChunk, stream: true, role: 'member' }),
  imageCreate: def({ group: 'File and image', method: 'POST', path: '/image/create', summary: 'Generate images through the OpenAI images API; each image is stored as a Weave Content (files) and the call is tracked', req: completions.ImageGenerationCreateReq, res: completions.ImageGenerationCreateRes, role: 'member' }),

  // Inference catalogues: the models this server serves through its instance-wide providers
  inferenceOpenRouterModels: def({ group: 'Inference', method: 'GET', path: '/inference/router/openrouter/models', summary: "The served models in OpenRouter's provider-listing format", req: inference.CatalogueReq, res: inference.OpenRouterModelsRes, public: true }),
  inferenceAnalysisModels: def({ group: 'Inference', method: 'GET', path: '/inference/analysis/artificialanalysis/models', summary: 'The served models for Artificial Analysis (OpenRouter listing format)', req: inference.CatalogueReq, res: inference.OpenRouterModelsRes, public: true }),
  inferenceHardware: def({ group: 'Inference', method: 'GET', path: '/inference/nvidia/v2/hardware', summary: 'Serving options and prices of a model (Bearer <api key> auth)', req: inference.HardwareReq, res: inference.HardwareRes, public: true }),
  inferenceCatalogModels: def({ group: 'Inference', method: 'GET', path: '/inference/catalog/models', summary: 'The catalogue of served models with context windows and prices', req: inference.CatalogueReq, res: inference.CatalogModelsRes, public: true }),

  // Weft's own account endpoints (not part of the Weave interface)
  whoami: def({ group: 'Weft', method: 'GET', path: '/weft/whoami', summary: 'The authenticated user, with their entities', req: service.Empty, res: weft.WhoamiRes, role: 'signed-in' }),
  traceOutline: def({ group: 'Weft', method: 'POST', path: '/weft/trace/outline', summary: "One trace's spans as a tree (names, status, timing, tokens, cost, errors, rollups per subtree), without inputs or outputs", req: traceOutline.TraceOutlineReq, res: traceOutline.TraceOutlineRes, role: 'viewer' }),
  traceOutlineStream: def({ group: 'Weft', method: 'POST', path: '/weft/trace/outline_stream', summary: 'The same outline as JSON lines: a head line (span count, truncated, usage per model), then the spans, the rows a tree shows on opening first', req: traceOutline.TraceOutlineReq, res: traceOutline.TraceOutlineLine, stream: true, role: 'viewer' }),
  callPreview: def({ group: 'Weft', method: 'POST', path: '/weft/call/preview', summary: 'Read a call with its inputs, output and attributes cut to a bounded preview (long strings, big lists and objects cut, with their lengths)', req: callPayload.CallPreviewReq, res: callPayload.CallPreviewRes, role: 'viewer' }),
  callPayloadPart: def({ group: 'Weft', method: 'POST', path: '/weft/call/payload_part', summary: "One part of a call's inputs, output or attributes by JSON path and offset (characters of a string, entries of a list or object)", req: callPayload.PayloadPartReq, res: callPayload.PayloadPartRes, role: 'viewer' }),
  callsExport: def({ group: 'Weft', method: 'POST', path: '/weft/calls/export', summary: 'Download the calls matching a query as JSON lines or CSV', req: calls.CallsExportReq, res: calls.CallsExportRes, raw: true, role: 'viewer' }),
  usersList: def({ group: 'Weft', method: 'GET', path: '/weft/users', summary: 'Every user with their entities (admins only)', req: accounts.UsersListReq, res: accounts.UsersListRes, role: 'admin', roleNote: 'in each entity listed; checked by the handler' }),
  userCreate: def({ group: 'Weft', method: 'POST', path: '/weft/users', summary: 'Create a user with a password and entities (admins only; 409 when the name is taken)', req: accounts.UserCreateReq, res: accounts.UserCreateRes, role: 'admin', roleNote: 'in each entity the user joins (global admin for admins or users without an entity); checked by the handler' }),
  userRoleSet: def({ group: 'Weft', method: 'PUT', path: '/weft/users/:username/roles', summary: "Set a user's role in an entity or one project, or remove it (entity admins for their entity)", req: accounts.UserRoleSetReq, res: accounts.UserRoleSetRes, role: 'admin', roleNote: "in the entity (or project's entity) concerned; checked by the handler" }),
  apiKeysList: def({ group: 'Weft', method: 'GET', path: '/weft/api_keys', summary: "Your API keys, revoked ones included (admins: anyone's, with username)", req: accounts.ApiKeysListReq, res: accounts.ApiKeysListRes, role: 'signed-in', roleNote: "others' keys: global admin" }),
  apiKeyCreate: def({ group: 'Weft', method: 'POST', path: '/weft/api_keys', summary: 'Create an API key for yourself; the answer is the only time the key is shown', req: accounts.ApiKeyCreateReq, res: accounts.ApiKeyCreateRes, role: 'signed-in' }),
  apiKeyRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/api_keys/:key_id', summary: "Revoke one of your API keys (admins: anyone's); it fails from the next request on", req: accounts.ApiKeyRevokeReq, res: accounts.ApiKeyRevokeRes, role: 'signed-in', roleNote: "others' keys: global admin" }),
  defaultEntitySet: def({ group: 'Weft', method: 'PUT', path: '/weft/default_entity', summary: "Choose where bare project names go (the default entity the SDKs get from /graphql); admins may set anyone's", req: accounts.DefaultEntitySetReq, res: accounts.DefaultEntitySetRes, role: 'signed-in', roleNote: "others' default entity: global admin" }),
  sessionCreate: def({ group: 'Weft', method: 'POST', path: '/weft/session', summary: 'Sign in to the dashboard: checks the password (throttled) and sets an HttpOnly session cookie', req: sessions.SessionCreateReq, res: sessions.SessionCreateRes, public: true }),
  sessionEnd: def({ group: 'Weft', method: 'DELETE', path: '/weft/session', summary: 'Sign out: ends the session of the cookie sent and removes the cookie', req: sessions.SessionEndReq, res: sessions.SessionEndRes, public: true }),
  sessionsList: def({ group: 'Weft', method: 'GET', path: '/weft/sessions', summary: "Your signed-in sessions, the current one marked (admins: anyone's)", req: sessions.SessionsListReq, res: sessions.SessionsListRes, role: 'signed-in', roleNote: "others' sessions: global admin" }),
  sessionRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/sessions/:session_id', summary: "End one of your sessions (admins: anyone's); it is signed out from its next request on", req: sessions.SessionRevokeReq, res: sessions.SessionRevokeRes, role: 'signed-in', roleNote: "others' sessions: global admin" }),
  userSessionsRevoke: def({ group: 'Weft', method: 'DELETE', path: '/weft/users/:username/sessions', summary: 'End every session of a user (admins only; API keys are not affected)', req: sessions.UserSessionsRevokeReq, res: sessions.UserSessionsRevokeRes, role: 'admin', roleNote: 'global admin; checked by the handler' }),
  passwordChange: def({ group: 'Weft', method: 'POST', path: '/weft/password', summary: 'Change your password; your other sessions end', req: sessions.PasswordChangeReq, res: sessions.PasswordChangeRes, role: 'signed-in' }),
  userPasswordReset: def({ group: 'Weft', method: 'PUT', path: '/weft/users/:username/password', summary: "Set a user's password (admins only); all their sessions end", req: sessions.UserPasswordResetReq, res: sessions.UserPasswordResetRes, role: 'admin', roleNote: 'global admin; checked by the handler' }),
  oidcConfig: def({ group: 'Weft', method: 'GET', path: '/weft/oidc/config', summary: 'Whether single sign-on is on, the name its button shows, whether it is reachable, and who may still sign in with a password', req: oidc.OidcConfigReq, res: oidc.OidcConfigRes, public: true }),
  oidcStart: def({ group: 'Weft', method: 'GET', path: '/weft/oidc/start', summary: "Start single sign-on: redirects the browser to the issuer (authorization code with PKCE; state and nonce in a sealed cookie)", req: oidc.OidcStartReq, res: oidc.OidcRedirectRes, public: true, raw: true }),
  oidcCallback: def({ group: 'Weft', method: 'GET', path: '/weft/oidc/callback', summary: "Where the issuer sends the browser back: checks the answer and ID token, links or creates the user, applies the role map, sets the session cookie and redirects to the dashboard; a failure is an HTML page", req: oidc.OidcCallbackReq, res: oidc.OidcRedirectRes, public: true, raw: true }),
  pricesList: def({ group: 'Weft', method: 'GET', path: '/weft/prices', summary: "Every LLM price that can apply to a project's calls, its own and the defaults, marking those in force now", req: costs.PricesListReq, res: costs.PricesListRes, role: 'viewer' }),
  providersList: def({ group: 'Weft', method: 'GET', path: '/weft/providers', summary: "The project's model providers and the instance-wide ones (keys masked, never returned)", req: providers.ProvidersListReq, res: providers.ProvidersListRes, role: 'viewer' }),
  providerCreate: def({ group: 'Weft', method: 'POST', path: '/weft/providers', summary: 'Add an OpenAI-compatible provider to the project (key sealed at rest; model prices go to the cost table)', req: providers.ProviderCreateReq, res: providers.ProviderRes, role: 'admin' }),
  providerUpdate: def({ group: 'Weft', method: 'PUT', path: '/weft/providers/:provider_id', summary: 'Change a project provider; an absent api_key keeps the stored one', req: providers.ProviderUpdateReq, res: providers.ProviderRes, role: 'admin' }),
  providerDelete: def({ group: 'Weft', method: 'DELETE', path: '/weft/providers/:provider_id', summary: 'Remove a project provider and the prices it added', req: providers.ProviderDeleteReq, res: providers.ProviderDeleteRes, role: 'admin' }),
  providerTest: def({ group: 'Weft', method: 'POST', path: '/weft/providers/:provider_id/test', summary: "Check a provider's URL and key by listing its models", req: providers.ProviderTestReq, res: providers.ProviderTestRes, role: 'admin' }),
  modelsList: def({ group: 'Weft', method: 'GET', path: '/weft/models', summary: 'Every model the project can use, as <provider>/<model>, with prices; says what to configure when none', req: providers.ModelsListReq, res: providers.ModelsListRes, role: 'viewer' }),
  judgeTry: def({ group: 'Weft', method: 'POST', path: '/weft/judges/try', summary: 'Try an LLM judge (saved, or being edited) on one ended call: its answer at once, no feedback stored', req: evaluations.JudgeTryReq, res: evaluations.JudgeTryRes, role: 'member' }),
  judgeAgreement: def({ group: 'Weft', method: 'POST', path: '/weft/judges/agreement', summary: "Each scorer's agreement with human reviewers on the same question and calls: Cohen's κ, Krippendorff's α, confusion matrix, disagreeing calls", req: agreement.JudgeAgreementReq, res: agreement.JudgeAgreementRes, role: 'viewer' }),
  callsScoreJob: def({ group: 'Weft', method: 'POST', path: '/weft/calls/score', summary: '/calls/score answering the id of the scoring job, to follow its progress at /weft/jobs/:job_id', req: evaluations.CallsScoreReq, res: evaluations.WeftCallsScoreRes, role: 'member' }),
  jobsList: def({ group: 'Weft', method: 'GET', path: '/weft/jobs', summary: "The project's background jobs (evaluations, scoring), newest first", req: providers.JobsListReq, res: providers.JobsListRes, role: 'viewer' }),
  jobRead: def({ group: 'Weft', method: 'GET', path: '/weft/jobs/:job_id', summary: 'One background job with its progress', req: providers.JobReq, res: providers.JobRes, role: 'viewer' }),
  jobCancel: def({ group: 'Weft', method: 'POST', path: '/weft/jobs/:job_id/cancel', summary: 'Cancel a queued or running job', req: providers.JobReq, res: providers.JobRes, role: 'member' }),
  // Redaction rules, applied to data at ingest (docs/security/redaction.md)
  redactionList: def({ group: 'Weft', method: 'GET', path: '/weft/redaction', summary: "The redaction rules in force in a project (its own and its entity's), or an entity's defaults", req: redaction.RedactionListReq, res: redaction.RedactionListRes, role: 'viewer' }),
  redactionAdd: def({ group: 'Weft', method: 'POST', path: '/weft/redaction', summary: 'Add a redaction rule to a project or an entity: a key name, a built-in pattern or a regular expression (refused with 422 when it could stall ingest). Applies to new data only', req: redaction.RedactionAddReq, res: redaction.RedactionRuleRes, role: 'admin' }),
  redactionDelete: def({ group: 'Weft', method: 'DELETE', path: '/weft/redaction/:rule_id', summary: 'Remove a redaction rule; data stored while it applied keeps its markers', req: redaction.RedactionDeleteReq, res: redaction.RedactionDeleteRes, role: 'admin' }),
  auditList: def({ group: 'Weft', method: 'GET', path: '/weft/audit', summary: 'The audit log, newest first, filtered and paged (global admins: every row; entity admins: their entities\' rows)', req: audit.AuditListReq, res: audit.AuditListRes, role: 'admin' }),
  auditExport: def({ group: 'Weft', method: 'GET', path: '/weft/audit/export', summary: 'Download the audit log rows matching a filter as CSV or JSON lines', req: audit.AuditExportReq, res: audit.AuditExportRes, raw: true, role: 'admin' }),
  retentionRead: def({ group: 'Weft', method: 'GET', path: '/weft/retention', summary: "The retention rule in force for a project (or an entity's default) and where it is set", req: retention.RetentionReadReq, res: retention.RetentionReadRes, role: 'viewer' }),
  retentionSet: def({ group: 'Weft', method: 'PUT', path: '/weft/retention', summary: "Set or remove a project's retention rule or an entity's default (admins of it); older calls go at the next sweep", req: retention.RetentionSetReq, res: retention.RetentionSetRes, role: 'admin' }),
  // Alert rules delivered by webhook (docs/alerts.md)
  alertsList: def({ group: 'Weft', method: 'GET', path: '/weft/alerts', summary: "The project's alert rules with their state (webhook URLs masked, never returned)", req: alerts.AlertsListReq, res: alerts.AlertsListRes, role: 'viewer' }),
  alertCreate: def({ group: 'Weft', method: 'POST', path: '/weft/alerts', summary: 'Add an alert rule: a metric over a window against a threshold, delivered to a webhook (URL sealed at rest)', req: alerts.AlertCreateReq, res: alerts.AlertRes, role: 'member' }),
  alertUpdate: def({ group: 'Weft', method: 'PUT', path: '/weft/alerts/:rule_id', summary: 'Change, enable, disable or snooze an alert rule; an absent webhook_url keeps the stored one', req: alerts.AlertUpdateReq, res: alerts.AlertRes, role: 'member' }),
  alertDelete: def({ group: 'Weft', method: 'DELETE', path: '/weft/alerts/:rule_id', summary: 'Remove an alert rule and its history', req: alerts.AlertDeleteReq, res: alerts.AlertDeleteRes, role: 'member' }),
  alertTest: def({ group: 'Weft', method: 'POST', path: '/weft/alerts/:rule_id/test', summary: "Send a test event to the rule's webhook and answer its status", req: alerts.AlertTestReq, res: alerts.AlertTestRes, role: 'member' }),
  alertEvents: def({ group: 'Weft', method: 'GET', path: '/weft/alerts/events', summary: 'Firings and resolutions of the project\'s alert rules (or one rule), newest first', req: alerts.AlertEventsReq, res: alerts.AlertEventsRes, role: 'viewer' }),
  // The Model Context Protocol for coding agents (docs/mcp.md)
  mcp: def({ group: 'Weft', method: 'POST', path: '/mcp', summary: 'Model Context Protocol (streamable HTTP, stateless, JSON answers): read-only tools over projects, calls, traces, threads, evaluation runs and annotation queues', req: mcp.McpReq, res: mcp.McpRes, raw: true, role: 'viewer', roleNote: 'viewer in the project each tool call names, checked by the tool (refused as a tool error naming the role); list_projects lists only projects where the caller has a role' }),
  mcpStream: def({ group: 'Weft', method: 'GET', path: '/mcp', summary: 'The MCP server-to-client stream, not offered (stateless server): 405, as the protocol says', req: mcp.McpStreamReq, res: mcp.McpStreamRes, public: true, raw: true }),

  // W&B's own API, the part the Weave SDKs call before tracing (not a trace-server route)
  wandbGraphql: def({ group: 'W&B', method: 'POST', path: '/graphql', summary: 'W&B GraphQL subset for SDK start-up: viewer (username, defaultEntity, teams), project/model lookup, upsertModel. Basic api:<key>; failures are GraphQL errors (401 UNAUTHENTICATED for a bad key)', req: wandbGraphql.WandbGraphqlReq, res: wandbGraphql.WandbGraphqlRes, raw: true, auth: 'handler', role: 'viewer', roleNote: 'viewer for lookups, member in the project for upsertModel; checked by the handler' }),
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type ReqOf<K extends EndpointName> = z.input<Endpoints[K]['req']>;
export type ResOf<K extends EndpointName> = z.output<Endpoints[K]['res']>;
