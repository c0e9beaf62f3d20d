/**
 * What bounds one MCP tool call (docs/mcp.md "Bounds"): a row cap (a larger `limit` is capped
 * and the answer says so, so an agent learns to page), a deadline (checked between rows and
 * raced against each store read), and a cut on payloads (a 20 MB input never reaches the agent).
 */
import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../errors.js';
import { limitText, type Limits } from '../../limits.js';

/** 504 naming the setting: the tool took longer than WEFT_MCP_TOOL_MS. */
export class ToolDeadlineError extends ApiError {
  constructor(limits: Limits) {
    super(504, `This tool call ran out of time (${limitText('mcpToolMs', limits)}); ask for fewer rows or a narrower filter`);
  }
}

/** The deadline of one tool call, on the server's clock. */
export class ToolDeadline {
  readonly #clock: Clock;
  readonly #limits: Limits;
  readonly #endMicros: number;

  constructor(clock: Clock, limits: Limits) {
    this.#clock = clock;
    this.#limits = limits;
    this.#endMicros = clock.nowMicros() + limits.mcpToolMs * 1000;
  }

  /** Throws once the deadline has passed: called between rows of a stream. */
  check(): void {
    if (this.#clock.nowMicros() > this.#endMicros) throw new ToolDeadlineError(this.#limits);
  }

  /**
   * `work`, or the deadline error if it is not done in time. A store read cannot be stopped from
   * here: on SQLite a read thread's budget stops it (docs/request-threads.md), on ClickHouse its
   * `max_execution_time`; the agent is answered either way.
   */
  async race<T>(work: Promise<T>): Promise<T> {
    this.check();
    const left = Math.max(0, (this.#endMicros - this.#clock.nowMicros()) / 1000);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ToolDeadlineError(this.#limits)), left);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Gathers a stream's rows, checking the deadline before each. */
  async collect<T>(rows: AsyncIterable<T>, max = Infinity): Promise<T[]> {
    const out: T[] = [];
    if (max <= 0) return out;
    const it = rows[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await this.race(it.next());
        if (next.done) break;
        out.push(next.value);
        if (out.length >= max) break;
        this.check();
      }
    } finally {
      // Ends the store's stream (and its statement) whether we stopped early or failed.
      await it.return?.();
    }
    return out;
  }
}

/** The rows a tool asks the store for: the agent's `limit` (or the tool's default) within the cap. */
export function rowLimit(requested: number | undefined, fallback: number, limits: Limits): { limit: number; capped: boolean } {
  const want = requested ?? fallback;
  return want > limits.maxMcpRows ? { limit: limits.maxMcpRows, capped: true } : { limit: want, capped: false };
}

/** What the answer says when the limit was capped. */
export function cappedNote(capped: boolean, limits: Limits): { limit_capped: string } | Record<string, never> {
  return capped ? { limit_capped: `limit lowered to ${limitText('maxMcpRows', limits)}; page with offset` } : {};
}

/** A payload cut to `max` characters of its JSON, marked as cut; small values come back as they are. */
export function cutPayload(value: unknown, max: number): unknown {
  if (value === undefined || value === null) return value ?? null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= max) return value;
  return { _truncated: `${text.length} characters of JSON, cut to ${max}`, preview: text.slice(0, max) };
}

/** A short line of text (an exception's first line, a preview) cut to `max` characters. */
export function cutText(text: string | null | undefined, max: number): string | null {
  if (text == null) return null;
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
