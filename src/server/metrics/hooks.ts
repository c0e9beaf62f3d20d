/**
 * What the rest of the server calls to count and time things for `/metrics`. This module loads
 * no metrics library, so request threads and commands that import the code it sits in pay
 * nothing for it: every hook is a no-op until the server installs real ones (registry.ts, on
 * the main thread) or a request thread installs ones that forward its counts to the main thread
 * (threads/requestWorker.ts). No hook takes a project, entity, user or id: `/metrics` must not
 * name anyone's data (docs/operations/metrics.md).
 */

/** Which API wrote the calls: the call endpoints, OTel export, or the evaluation (v2) API. */
export type IngestSource = 'sdk' | 'otel' | 'evaluation';
export type BudgetStop = 'read_budget' | 'read_queue' | 'reads_per_user' | 'send_timeout';
export type JobOutcome = 'succeeded' | 'failed' | 'cancelled';

/** Counts a request thread makes that only the main thread can report: sent there as data. */
export interface Tally {
  callStarts: Record<IngestSource, number>;
  callEnds: Record<IngestSource, number>;
  feedback: number;
}

export interface MetricHooks {
  /** Call starts and ends a request wrote (an OTel span is one of each). */
  ingested(source: IngestSource, starts: number, ends: number): void;
  /** Feedback rows a request wrote. */
  feedbackWritten(rows: number): void;
  /** A failed sign-in or API key: `password` (a user name was given) or `api_key`. */
  loginFailed(kind: 'password' | 'api_key'): void;
  /** A sign-in refused (429) because its address or user name used up its failures. */
  loginThrottled(scope: 'address' | 'username'): void;
  /** One group commit on the writer: its units (requests' writes), rows and time. */
  committed(units: number, rows: number, seconds: number): void;
  /** How long a request waited for a request thread of its kind. */
  queueWaited(kind: 'read' | 'write', seconds: number): void;
  /** A request stopped by a bound (504, 503, 429, a cut stream). */
  budgetStopped(reason: BudgetStop): void;
  /** A background job ended. */
  jobEnded(kind: string, outcome: JobOutcome): void;
}

const NOOP: MetricHooks = {
  ingested() {},
  feedbackWritten() {},
  loginFailed() {},
  loginThrottled() {},
  committed() {},
  queueWaited() {},
  budgetStopped() {},
  jobEnded() {},
};

/** Told, on the thread that hears of it, whenever calls ended here (jobs/MonitorSweeper.ts `wake`). */
const callsEndedListeners = new Set<() => void>();

/**
 * Listens for calls ending on this process: `ingested` is where every write path (request
 * threads' tallies included) already reports them, metrics on or off.
 */
export function onCallsEnded(listener: () => void): () => void {
  callsEndedListeners.add(listener);
  return () => callsEndedListeners.delete(listener);
}

const withListener = (hooks: MetricHooks): MetricHooks => ({
  ...hooks,
  ingested(source, starts, ends) {
    hooks.ingested(source, starts, ends);
    if (ends > 0) for (const listener of callsEndedListeners) listener();
  },
});

/** The hooks in force; call them as `metrics.ingested(...)`. */
export let metrics: MetricHooks = withListener(NOOP);

export function installMetricHooks(hooks: MetricHooks | null): void {
  metrics = withListener(hooks ?? NOOP);
}

export function emptyTally(): Tally {
  return { callStarts: { sdk: 0, otel: 0, evaluation: 0 }, callEnds: { sdk: 0, otel: 0, evaluation: 0 }, feedback: 0 };
}

/** Replays a request thread's tally into the hooks in force (the main thread's). */
export function applyTally(tally: Tally): void {
  for (const source of ['sdk', 'otel', 'evaluation'] as const) {
    if (tally.callStarts[source] || tally.callEnds[source]) metrics.ingested(source, tally.callStarts[source], tally.callEnds[source]);
  }
  if (tally.feedback) metrics.feedbackWritten(tally.feedback);
}

/**
 * A request thread's hooks: the counts accumulate and go to the main thread in one message per
 * turn of the event loop in which something was counted. The other hooks are main-thread events
 * (sign-ins are checked there, commits happen there), so they are no-ops here.
 */
export function forwardingHooks(send: (tally: Tally) => void): MetricHooks {
  let pending: Tally | null = null;
  const take = (): Tally => {
    if (!pending) {
      pending = emptyTally();
      setImmediate(() => {
        const tally = pending!;
        pending = null;
        send(tally);
      });
    }
    return pending;
  };
  return {
    ...NOOP,
    ingested(source, starts, ends) {
      const t = take();
      t.callStarts[source] += starts;
      t.callEnds[source] += ends;
    },
    feedbackWritten(rows) {
      take().feedback += rows;
    },
  };
}
