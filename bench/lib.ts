/**
 * What the HTTP benchmarks share: an in-process server on a prepared data directory, called as
 * the admin, or a `weft serve` process; median timings, CPU readings and a `/health` probe.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../src/server/config.js';
import { startServer, type RunningServer } from '../src/server/process/main.js';

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

/**
 * CPU seconds used so far by this process (an in-process server's threads included) and by
 * `otherPid` (a ClickHouse engine) if given. On a machine loaded far beyond its cores, wall time
 * mostly measures the queue for a core; CPU time per request hardly moves with the load.
 */
export function cpuSeconds(otherPid?: number | null): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + (otherPid ? serverCpu(otherPid).process : 0);
}

/** timeMedian, and the median CPU milliseconds `cpu` (a running total in seconds) grew by per run. */
export async function timeAndCpuMedian(
  fn: () => Promise<unknown> | unknown,
  cpu: () => number,
  runs = 5,
): Promise<{ ms: number; cpuMs: number }> {
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = cpu();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    cpus.push((cpu() - c0) * 1000);
  }
  return { ms: median(times), cpuMs: median(cpus) };
}

/**
 * Weft on `dataDir` on a free port (admin password "bench"), and a POST with JSON as the admin.
 * `env` adds settings, e.g. a ClickHouse dataset's (backend.ts).
 */
export async function startBenchServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; post(path: string, body: unknown): Promise<Response> }> {
  const server = await startServer(
    loadConfig({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'bench', PORT: '0', WEFT_LOG_LEVEL: 'warn', ...env }),
  );
  const authorization = `Basic ${Buffer.from('admin:bench').toString('base64')}`;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { server, post };
}

/**
 * `weft serve` as a separate process on `dataDir` (so the benchmark's own CPU is not the
 * server's), from `serverDir` (another checkout, to compare) with extra environment.
 * BENCH_SERVER_NODE_ARGS passes flags to its node, e.g. --cpu-prof.
 */
export async function spawnWeft(
  dataDir: string,
  options: { serverDir?: string; args?: string[]; env?: Record<string, string> } = {},
): Promise<{ url: string; pid: number; stop: () => Promise<void>; cpu: () => ServerCpu }> {
  const { spawn } = await import('node:child_process');
  const { join, resolve } = await import('node:path');
  const serverDir = resolve(options.serverDir ?? '.');
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, join(serverDir, 'bin/weft.js'), 'serve', '--port', '0', ...(options.args ?? [])], {
    cwd: serverDir,
    env: {
      ...process.env,
      WEFT_DATA_DIR: dataDir,
      WEFT_ADMIN_PASSWORD: 'bench',
      WEFT_NO_DASHBOARD: '1',
      // BENCH_LOG_LEVEL=info measures with the access log written (docs/operations/logs.md).
      WEFT_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  // A benchmark that dies before stop() (an error, its output piped into `head`) must not leave
  // the server running: idle ones still hold memory, and one under load skews every later figure.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  return {
    url,
    pid: child.pid!,
    stop: () => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGINT'))),
    cpu: () => serverCpu(child.pid!),
  };
}

/** `KEY=value KEY2=value` (BENCH_SERVER_ENV) as an object. */
export const envFromString = (text: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (text ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

/** CPU seconds (user + system) a server process used so far: all its threads, and its main thread alone. */
export interface ServerCpu {
  process: number;
  main: number;
}

/**
 * Read from /proc (Linux): CPU time, unlike wall time, hardly depends on what else the machine
 * runs, so it compares two servers fairly on a shared machine. NaN where /proc is missing.
 */
export function serverCpu(pid: number): ServerCpu {
  const ticks = (path: string): number => {
    try {
      const stat = readFileSync(path, 'utf8');
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  return { process: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * `/health` every 50 ms until `stop`, from a thread of its own: in a benchmark's event loop, busy
 * with its own connections, the probe's wait for its turn would be counted as the server's.
 * `stop` answers each answered probe's milliseconds, sorted, and how many failed.
 */
export function probeHealth(url: string): { stop: () => Promise<{ ok: number[]; errors: number }> } {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    let stopped = false;
    parentPort.once('message', () => (stopped = true));
    (async () => {
      const ok = [];
      let errors = 0;
      while (!stopped) {
        const t = performance.now();
        try {
          const res = await fetch(workerData.url);
          await res.text();
          if (res.ok) ok.push(performance.now() - t);
          else errors++;
        } catch {
          errors++;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      parentPort.postMessage({ ok: ok.sort((a, b) => a - b), errors });
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { url } });
  const result = new Promise<{ ok: number[]; errors: number }>((resolve, reject) => {
    worker.once('message', (r: { ok: number[]; errors: number }) => void worker.terminate().then(() => resolve(r)));
    worker.once('error', reject);
  });
  return {
    stop: () => {
      worker.postMessage('stop');
      return result;
    },
  };
}

/** The value at fraction `p` (0-1) of an ascending list; NaN for none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]! : NaN;
