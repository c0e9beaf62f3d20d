/**
 * Thread statistics from a thread's turn calls (store-agnostic, so every backend and the
 * filtered on-the-fly path compute them the same way).
 */
import { percentile } from './percentile.js';

/** What the statistics need of one turn call (times in epoch microseconds). */
export interface TurnFacts {
  id: string;
  startedAt: number;
  endedAt: number | null;
  failed: boolean;
  tokens: number;
}

export interface ThreadStats {
  turnCount: number;
  finishedTurnCount: number;
  startTime: number;
  lastUpdated: number | null;
  firstTurnId: string | null;
  lastTurnId: string | null;
  p50TurnDurationMs: number | null;
  p99TurnDurationMs: number | null;
  errorCount: number;
  totalTokens: number;
}

/**
 * first turn = earliest start, last turn = latest end (ties: the smaller id, so answers are
 * stable); last updated = the latest end, else the latest start. Durations count finished turns only; unfinished turns still count as turns.
 */
export function computeThreadStats(turns: readonly TurnFacts[]): ThreadStats {
  let first: TurnFacts | null = null;
  let last: TurnFacts | null = null;
  const durations: number[] = [];
  let errorCount = 0;
  let totalTokens = 0;
  let latestStart = 0;
  for (const t of turns) {
    latestStart = Math.max(latestStart, t.startedAt);
    if (!first || t.startedAt < first.startedAt || (t.startedAt === first.startedAt && t.id < first.id)) first = t;
    if (t.endedAt !== null) {
      durations.push((t.endedAt - t.startedAt) / 1000);
      if (!last || t.endedAt > last.endedAt! || (t.endedAt === last.endedAt && t.id < last.id)) last = t;
    }
    if (t.failed) errorCount++;
    totalTokens += t.tokens;
  }
  durations.sort((a, b) => a - b);
  return {
    turnCount: turns.length,
    finishedTurnCount: durations.length,
    startTime: first?.startedAt ?? 0,
    // Required in the reference's ThreadSchema: the latest end, or else (no turn has ended
    // yet) the latest start, so a thread that is still running sorts by its activity too.
    lastUpdated: last?.endedAt ?? (turns.length ? latestStart : null),
    firstTurnId: first?.id ?? null,
    lastTurnId: last?.id ?? null,
    p50TurnDurationMs: percentile(durations, 0.5),
    p99TurnDurationMs: percentile(durations, 0.99),
    errorCount,
    totalTokens,
  };
}
