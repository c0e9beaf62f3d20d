/**
 * `/metrics` under `weft serve --workers N`. The workers share the port and the primary serves
 * no HTTP, so a scrape reaches one worker; that worker asks the primary, which gathers every
 * worker's registry over the cluster's IPC channel (prom-client's AggregatorRegistry, each
 * worker answering from registry.ts) and answers the sum. One scrape thus covers every process.
 */
import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';

const ASK = 'weft:metrics';
const ANSWER = 'weft:metrics-answer';
/** The primary waits up to 5 s for the workers (prom-client's bound); a little longer here. */
const ANSWER_TIMEOUT_MS = 6000;

interface Answer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

const waiting = new Map<string, { resolve: (text: string) => void; reject: (err: Error) => void }>();
let listening = false;

/** In a worker: the whole server's figures, from the primary. */
export function clusterMetricsText(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (msg: Answer) => {
      if (msg?.type !== ANSWER) return;
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error !== undefined) w?.reject(new Error(`The primary could not gather the workers' metrics: ${msg.error}`));
      else w?.resolve(msg.text ?? '');
    });
  }
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error("The primary process did not answer with the workers' metrics in time"));
    }, ANSWER_TIMEOUT_MS);
    waiting.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (err) => (clearTimeout(timer), reject(err)),
    });
    process.send!({ type: ASK, id });
  });
}

let aggregator: AggregatorRegistry<PrometheusContentType> | null = null;

/** In the primary: answers a worker that asks for the whole server's figures. */
export function answerMetricsRequests(worker: Worker): void {
  aggregator ??= new AggregatorRegistry();
  const registry = aggregator;
  worker.on('message', (msg: { type?: string; id?: string }) => {
    if (msg?.type !== ASK || typeof msg.id !== 'string') return;
    const id = msg.id;
    registry.clusterMetrics().then(
      (text: string) => worker.isConnected() && worker.send({ type: ANSWER, id, text } satisfies Answer),
      (err: unknown) => worker.isConnected() && worker.send({ type: ANSWER, id, error: String(err) } satisfies Answer),
    );
  });
}
