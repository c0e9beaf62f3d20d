/** A small leveled logger on stderr. `WEFT_LOG_LEVEL`: debug, info (default), warn, error, silent. */
export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LEVELS)[number];

export function createLogger(level: LogLevel = 'info'): Logger {
  const min = LEVELS.indexOf(level);
  const at = (l: LogLevel) => LEVELS.indexOf(l) >= min;
  const line = (l: string, msg: string) => process.stderr.write(`${new Date().toISOString()} ${l} ${msg}\n`);
  return {
    debug: (m) => at('debug') && line('debug', m),
    info: (m) => at('info') && line('info', m),
    warn: (m) => at('warn') && line('warn', m),
    error: (m, err) => {
      if (!at('error')) return;
      line('error', m);
      // Follow `cause` so a typed error thrown over an engine or upstream failure logs both.
      for (let e: unknown = err, depth = 0; e && depth < 5; e = e instanceof Error ? e.cause : undefined, depth++) {
        process.stderr.write(`${depth ? 'caused by: ' : ''}${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      }
    },
  };
}

export const parseLogLevel = (v: string | undefined): LogLevel =>
  (LEVELS as readonly string[]).includes(v ?? '') ? (v as LogLevel) : 'info';
