/**
 * What the HTTP benchmarks share: an in-process server on a prepared data directory, called as
 * the admin, and median timings.
 */
import { loadConfig } from '../src/server/config.js';
import { startServer, type RunningServer } from '../src/server/main.js';

/** The middle value (the upper one of the two for an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `fn` `runs` times in a row; the median wall time in milliseconds. */
export async function timeMedian(fn: () => Promise<unknown> | unknown, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Weft on `dataDir` on a free port (admin password "bench"), and a POST with JSON as the admin. */
export async function startBenchServer(
  dataDir: string,
): Promise<{ server: RunningServer; post(path: string, body: unknown): Promise<Response> }> {
  const server = await startServer(loadConfig({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'bench', PORT: '0', WEFT_LOG_LEVEL: 'warn' }));
  const authorization = `Basic ${Buffer.from('admin:bench').toString('base64')}`;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization }, body: JSON.stringify(body) });
  return { server, post };
}
