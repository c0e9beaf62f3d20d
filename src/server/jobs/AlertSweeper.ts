/**
 * Queues the evaluation of every enabled alert rule once a minute, on the server process that
 * runs the jobs (docs/alerts.md "Exactly once"): each evaluation is a job whose id names its rule
 * and minute, so replicas sweeping the same minute queue it once and one of them runs it.
 */
import type { Clock } from '../core/clock.js';
import { ALERT_EVALUATE_JOB, MINUTE_MICROS, alertJobId } from '../domain/alerts/alertEvaluation.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';
import type { JobRunner } from './JobRunner.js';

/** Sweeps come more often than once a minute, so a minute is never missed; repeats collapse. */
export const ALERT_SWEEP_MS = 15_000;

export class AlertSweeper {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #jobs: Pick<JobRunner, 'enqueue'>;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> | null = null;

  constructor(o: { store: Store; clock: Clock; log: Logger; jobs: Pick<JobRunner, 'enqueue'> }) {
    this.#store = o.store;
    this.#clock = o.clock;
    this.#log = o.log;
    this.#jobs = o.jobs;
  }

  /** Queues this minute's evaluations; answers their job ids. */
  async sweepNow(): Promise<string[]> {
    const minute = Math.floor(this.#clock.nowMicros() / MINUTE_MICROS);
    const ids: string[] = [];
    for (const rule of await this.#store.alerts.enabledAlertRules()) {
      try {
        ids.push(
          await this.#jobs.enqueue({
            id: alertJobId(rule.id, minute),
            projectId: rule.projectId,
            kind: ALERT_EVALUATE_JOB,
            payload: { rule_id: rule.id, minute },
            createdBy: rule.createdBy,
          }),
        );
      } catch (err) {
        // A project whose job queue is full skips this minute (the next one tries again).
        this.#log.warn(`alerts: rule ${rule.id} of ${rule.projectId} not evaluated this minute: ${String(err)}`);
      }
    }
    return ids;
  }

  start(): void {
    const tick = () => {
      if (this.#running) return;
      this.#running = this.sweepNow()
        .catch((err: unknown) => this.#log.warn(`alerts: sweep failed, retried at the next tick: ${String(err)}`))
        .finally(() => (this.#running = null));
    };
    tick();
    this.#timer = setInterval(tick, ALERT_SWEEP_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
