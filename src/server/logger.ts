/**
 * The server's logger: pino, one line per event on stderr (docs/operations/logs.md).
 * `WEFT_LOG_LEVEL`: debug, info (default), warn, error, silent. `WEFT_LOG_FORMAT`: json (one
 * object per line, for a collector) or pretty (for a person at a terminal); by default pretty
 * when stderr is a terminal, json otherwise.
 *
 * Call sites keep the small interface below (`log.warn(msg)`, `log.error(msg, err)`), with
 * optional structured fields; `child` binds fields (a job id) to every line of a logger.
 */
import { isMainThread } from 'node:worker_threads';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  /** `err` is serialized with its stack and its `cause` chain. */
  error(msg: string, err?: unknown, fields?: LogFields): void;
  /** A logger that adds `bindings` to each of its lines. */
  child(bindings: LogFields): Logger;
}

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

/**
 * Second line of defence: fields that must never reach a log, whatever a call site passes
 * (the access log names none of them; docs/operations/logs.md). Exact paths only: a wildcard
 * (`*.password`) made every line cost about twice as much to write (docs/performance.md).
 */
export const REDACTED_PATHS = [
  'password',
  'apiKey',
  'api_key',
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["wandb-api-key"]',
  'headers["set-cookie"]',
];

export interface LoggerOptions {
  format?: LogFormat;
  /** Where lines go (tests); stderr by default. */
  destination?: DestinationStream;
}

/** One stderr stream per format, shared by every logger of the thread. */
const destinations = new Map<LogFormat, DestinationStream>();

function stderrOf(format: LogFormat): DestinationStream {
  let dest = destinations.get(format);
  if (!dest) {
    // JSON lines are buffered and written without blocking on the main thread (pino flushes
    // them at exit); a request thread writes each line at once: pino cannot flush it at exit.
    dest =
      format === 'pretty'
        ? pretty({
            destination: 2,
            sync: true,
            colorize: Boolean(process.stderr.isTTY),
            translateTime: 'SYS:HH:MM:ss.l',
            // An access line on one line of text; other lines end with their request id.
            messageFormat: prettyMessage,
            ignore: `pid,hostname,${ACCESS_FIELDS.join(',')}`,
          })
        : pino.destination({ fd: 2, sync: !isMainThread });
    destinations.set(format, dest);
  }
  return dest;
}

/** The fields of an access line (http/accessLog.ts), which pretty text shows in its message. */
const ACCESS_FIELDS = ['request_id', 'method', 'route', 'status', 'duration_ms', 'bytes', 'user', 'client', 'aborted'];

function prettyMessage(line: Record<string, unknown>, messageKey: string): string {
  const msg = String(line[messageKey] ?? '');
  const id = line.request_id === undefined ? '' : ` [${String(line.request_id)}]`;
  if (msg !== 'request' || line.status === undefined) return `${msg}${id}`;
  const f = (v: unknown) => (v === undefined ? '-' : String(v));
  const aborted = line.aborted ? ' (aborted)' : '';
  return `${f(line.method)} ${f(line.route)} ${f(line.status)} ${f(line.duration_ms)} ms ${f(line.bytes)} B ${f(line.user)} ${f(line.client)}${aborted}${id}`;
}

/** The format when WEFT_LOG_FORMAT is unset: pretty for a person at a terminal, JSON for anything else. */
export const defaultLogFormat = (): LogFormat => (process.stderr.isTTY ? 'pretty' : 'json');

export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
  const format = options.format ?? defaultLogFormat();
  const base = pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? stderrOf(format),
  );
  return wrap(base);
}

function wrap(p: Pino): Logger {
  return {
    debug: (msg, fields) => (fields ? p.debug(fields, msg) : p.debug(msg)),
    info: (msg, fields) => (fields ? p.info(fields, msg) : p.info(msg)),
    warn: (msg, fields) => (fields ? p.warn(fields, msg) : p.warn(msg)),
    error: (msg, err, fields) => {
      if (err === undefined) return fields ? p.error(fields, msg) : p.error(msg);
      // pino's error serializer keeps the stack and follows `cause`, so a typed error thrown
      // over an engine or upstream failure logs both.
      p.error({ ...fields, err: err instanceof Error ? err : new Error(String(err)) }, msg);
    },
    child: (bindings) => wrap(p.child(bindings)),
  };
}

export const parseLogLevel = (v: string | undefined): LogLevel =>
  (LEVELS as readonly string[]).includes(v ?? '') ? (v as LogLevel) : 'info';

/** WEFT_LOG_FORMAT: `json` or `pretty`; unset or empty takes the default above. */
export function parseLogFormat(v: string | undefined): LogFormat {
  if (v === undefined || v === '') return defaultLogFormat();
  if (v === 'json' || v === 'pretty') return v;
  throw new Error(`WEFT_LOG_FORMAT must be "json" or "pretty", not "${v}"`);
}
