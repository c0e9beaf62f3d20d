/**
 * Every limit the server puts on what one request may ask of it, in one place. Each is
 * settable (environment variable, or `weft serve --flag`), and the README lists them all in
 * one table. Errors name the limit and the variable that sets it, so a client that hits one
 * knows what to change.
 *
 * Why these exist: one request must not be able to stall or break the server for everyone
 * else (a 100,000-literal `$in` used to freeze every tenant for 90 s), and nothing accepted
 * may later break a query (SQLite's JSON functions stop at depth 1,000, so a call whose
 * inputs nest deeper would make every `inputs.*` filter of its project fail).
 *
 * Defaults are generous for real SDK traffic: the Weave SDKs send bodies well under 32 MiB,
 * JSON nested at most a few dozen levels, and filters of a handful of operations.
 */

export interface Limits {
  /** Request body bytes (after Content-Encoding), JSON and binary alike. */
  maxBodyBytes: number;
  /** Bytes of a multipart file upload (`/file/create`, `/files/create`), the whole body. */
  maxFileBytes: number;
  /**
   * Bytes of one model provider's answer (a chat completion, streamed or not, or a model list),
   * counted while it arrives: past it the answer is cut off, so no provider can fill the memory.
   */
  maxProviderAnswerBytes: number;
  /**
   * Nesting of JSON objects and arrays in a request body, counting the body itself. Whatever
   * is stored comes from a body, so stored JSON stays within it too; 256 leaves room below
   * SQLite's JSON depth of 1,000 and ClickHouse's default max_parser_depth of 1,000.
   */
  maxJsonDepth: number;
  /** Operands of one `$and`, `$or` or `$in` list in a query. */
  maxQueryOperands: number;
  /**
   * Operations in one whole query, all lists together (field reads and literals are not
   * counted: they are cheap, and each list is bounded by `maxQueryOperands`). Validating an
   * operation costs about 0.2 ms of the event loop, so 2,000 stay well under half a second.
   */
  maxQueryOperations: number;
  /** Nesting of operations in a query (`$not` inside `$and` inside ... ). */
  maxQueryDepth: number;
  /** Ids in one id list of a request (`call_ids`, `thread_ids`, `filter.trace_ids`, ...). */
  maxIdList: number;
  /** Refs in one `refs/read_batch` (the reference's 1,000). */
  maxRefBatch: number;
  /** Bytes of the values one `refs/read_batch` answers, every position counted. */
  maxRefBatchBytes: number;
  /** `trials` of an Evaluation run by `/evaluations/evaluate_model`. */
  maxEvalTrials: number;
  /** Distinct scorers one background job applies (an Evaluation's, a rescore's, a `calls/score`'s, a monitor's). */
  maxJobScorers: number;
  /**
   * Model requests one background job may make, counted before it is queued: evaluate_model
   * rows × trials × (1 + scorers), rescore rows × scorers, calls/score calls × scorers.
   */
  maxJobModelCalls: number;
  /** Rows (calls, threads, runs, queue items, outline nodes) one MCP tool call answers; a larger `limit` is capped. */
  maxMcpRows: number;
  /** Milliseconds one MCP tool call may take before it answers an error instead (docs/mcp.md "Bounds"). */
  mcpToolMs: number;
  /** Characters of a call's inputs, output or exception one MCP tool call answers; longer values are cut. */
  maxMcpPayloadChars: number;
}

/** A limit: its field, environment variable, `weft serve` flag, default and what it bounds. */
export interface LimitSpec {
  key: keyof Limits;
  env: string;
  flag: string;
  default: number;
  what: string;
}

export const LIMIT_SPECS: readonly LimitSpec[] = [
  {
    key: 'maxBodyBytes',
    env: 'WEFT_MAX_BODY_BYTES',
    flag: 'max-body-bytes',
    default: 32 * 1024 * 1024,
    what: 'request body bytes, counted while the body streams; OTLP and file-upload bodies may be gzip/deflate and count after decoding, JSON bodies must be uncompressed (415); 413 past it',
  },
  {
    key: 'maxFileBytes',
    env: 'WEFT_MAX_FILE_BYTES',
    flag: 'max-file-bytes',
    default: 64 * 1024 * 1024,
    what: 'bytes of a multipart file upload; 413 past it',
  },
  {
    key: 'maxProviderAnswerBytes',
    env: 'WEFT_MAX_PROVIDER_ANSWER_BYTES',
    flag: 'max-provider-answer-bytes',
    default: 16 * 1024 * 1024,
    what: "bytes of one model provider's chat or model-list answer; past it the answer is cut off and reported as an error",
  },
  {
    key: 'maxJsonDepth',
    env: 'WEFT_MAX_JSON_DEPTH',
    flag: 'max-json-depth',
    default: 256,
    what: 'nesting of objects/arrays in a JSON body (and so in stored inputs, outputs, payloads); 422',
  },
  {
    key: 'maxQueryOperands',
    env: 'WEFT_MAX_QUERY_OPERANDS',
    flag: 'max-query-operands',
    default: 10_000,
    what: 'operands of one `$and` / `$or` / `$in` list; 422',
  },
  {
    key: 'maxQueryOperations',
    env: 'WEFT_MAX_QUERY_OPERATIONS',
    flag: 'max-query-operations',
    default: 2_000,
    what: 'operations in one whole `$expr` (field reads and literals not counted; on ClickHouse set it to a few hundred, see clickhouse.md); 422',
  },
  {
    key: 'maxQueryDepth',
    env: 'WEFT_MAX_QUERY_DEPTH',
    flag: 'max-query-depth',
    default: 64,
    what: 'nesting of operations in one `$expr`; 422',
  },
  {
    key: 'maxIdList',
    env: 'WEFT_MAX_ID_LIST',
    flag: 'max-id-list',
    default: 100_000,
    what: 'ids in one id list (`call_ids`, `thread_ids`, `filter.trace_ids`, ...); 422',
  },
  {
    key: 'maxRefBatch',
    env: 'WEFT_MAX_REF_BATCH',
    flag: 'max-ref-batch',
    default: 1000,
    what: 'refs in one `refs/read_batch` (repeated refs are read once but counted); 400',
  },
  {
    key: 'maxRefBatchBytes',
    env: 'WEFT_MAX_REF_BATCH_BYTES',
    flag: 'max-ref-batch-bytes',
    default: 32 * 1024 * 1024,
    what: 'bytes of the values one `refs/read_batch` answers, each position counted; 413',
  },
  {
    key: 'maxEvalTrials',
    env: 'WEFT_MAX_EVAL_TRIALS',
    flag: 'max-eval-trials',
    default: 100,
    what: '`trials` of an Evaluation run by `/evaluations/evaluate_model`; 400',
  },
  {
    key: 'maxJobScorers',
    env: 'WEFT_MAX_JOB_SCORERS',
    flag: 'max-job-scorers',
    default: 32,
    what: 'distinct scorers of one evaluate_model, rescore, calls/score or monitor (repeats collapse); 400',
  },
  {
    key: 'maxJobModelCalls',
    env: 'WEFT_MAX_JOB_MODEL_CALLS',
    flag: 'max-job-model-calls',
    default: 100_000,
    what: 'model requests one background job may make: rows × trials × (1 + scorers), or calls × scorers; 400',
  },
  {
    key: 'maxMcpRows',
    env: 'WEFT_MCP_MAX_ROWS',
    flag: 'mcp-max-rows',
    default: 500,
    what: 'rows one `/mcp` tool call answers (calls, threads, runs, queue items, trace outline nodes); a larger `limit` is capped and the answer says so ([mcp.md](mcp.md))',
  },
  {
    key: 'mcpToolMs',
    env: 'WEFT_MCP_TOOL_MS',
    flag: 'mcp-tool-ms',
    default: 10_000,
    what: 'milliseconds one `/mcp` tool call may take; past it the tool answers a `504:` tool error asking for fewer rows or a narrower filter ([mcp.md](mcp.md))',
  },
  {
    key: 'maxMcpPayloadChars',
    env: 'WEFT_MCP_MAX_PAYLOAD_CHARS',
    flag: 'mcp-max-payload-chars',
    default: 20_000,
    what: "characters of a call's inputs, output or exception one `/mcp` tool call answers; longer values are cut, marked as cut ([mcp.md](mcp.md))",
  },
];

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze(
  Object.fromEntries(LIMIT_SPECS.map((s) => [s.key, s.default])) as unknown as Limits,
);

/** The limits from flags and the environment (flags win); a value that is not a whole number ≥ 1 is an error. */
export function loadLimits(env: NodeJS.ProcessEnv, flags: Record<string, string> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const spec of LIMIT_SPECS) {
    const text = flags[spec.flag] ?? env[spec.env];
    if (text === undefined || text === '') continue;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${spec.env} / --${spec.flag} must be a whole number ≥ 1, not "${text}"`);
    limits[spec.key] = n;
  }
  return limits;
}

/** "the limit is 10000 (WEFT_MAX_QUERY_OPERANDS)": the tail every limit error ends with. */
export function limitText(key: keyof Limits, limits: Limits): string {
  const spec = LIMIT_SPECS.find((s) => s.key === key)!;
  return `the limit is ${limits[key]} (${spec.env})`;
}
