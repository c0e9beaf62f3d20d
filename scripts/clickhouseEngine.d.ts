/** Types for clickhouseEngine.js (plain JS so that `npm run clickhouse` needs no TypeScript loader). */
export interface ClickHouseEngine {
  url: string;
  httpPort: number;
  tcpPort: number | null;
  pid: number | undefined;
  /** Which launcher loaded libchdb: the compiled C program or python3 ctypes. */
  launcher: 'c' | 'python3';
  /** Milliseconds from spawn to the first answered /ping. */
  startMs: number;
  stop(): Promise<void>;
}
export function startClickHouseEngine(options: {
  dataDir: string;
  httpPort?: number;
  tcpPort?: number;
  /** Server configuration XML (`<clickhouse>...</clickhouse>`), passed as --config-file. */
  config?: string;
  /** Query settings every session starts with, as `--name=value`. */
  settings?: Record<string, string | number>;
  quiet?: boolean;
}): Promise<ClickHouseEngine>;
export const TEST_ENGINE_SETTINGS: Record<string, string | number>;
export function findLibChdb(): string | null;
/** findLibChdb(), fetching the engine from the npm registry first when it is missing. */
export function ensureLibChdb(options?: { out?: NodeJS.WritableStream }): string | null;
export const ENGINE_VERSION: string;
export function launcherCommand(): { command: string; args: string[]; kind: 'c' | 'python3' } | null;
export function freePort(): Promise<number>;
export const ENGINE_HELP: string;
