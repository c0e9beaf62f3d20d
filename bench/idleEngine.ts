/**
 * What idle Weft replicas cost a ClickHouse engine (docs/performance.md "Idle replicas"):
 * `--replicas` `weft serve` processes on one engine, nobody sending anything, and the engine's
 * CPU time (from /proc) and queries (system.events) over `--seconds`, after `--warmup` seconds
 * (long enough for an idle back-off to reach its ceiling). With `--before <dir>`, the same is
 * measured first for another Weft checkout (its own database on the same engine), so one run
 * gives before and after.
 *
 *   git archive <commit> | tar -x -C /tmp/weft-before && ln -s "$PWD/node_modules" /tmp/weft-before/
 *   node --import tsx bench/idleEngine.ts --before /tmp/weft-before [--replicas 3 --seconds 60 --warmup 40]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startClickHouseEngine } from '../scripts/clickhouseEngine.js';
import { ROOT, spawnWeftServe, weftEnv } from '../src/server/testing/serveProcess.js';

const { values } = parseArgs({
  options: {
    replicas: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '40' },
    before: { type: 'string' },
  },
});
const REPLICAS = Number(values.replicas);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const TICK = 100; // USER_HZ: /proc reports CPU time in clock ticks of 1/100 s on Linux

/** CPU seconds a process has used (user + system), from /proc/<pid>/stat. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

async function queries(url: string): Promise<number> {
  const res = await fetch(`${url}/?query=${encodeURIComponent("SELECT sum(value) FROM system.events WHERE event = 'Query'")}`);
  return Number((await res.text()).trim());
}

function run(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'weft.js'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`weft ${args.join(' ')} failed:\n${out}`))));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'weft-idle-'));
const engine = await startClickHouseEngine({ dataDir: join(dataDir, 'engine') });
const results: { label: string; engineCpu: number; queries: number; weftCpu: number }[] = [];
try {
  const variants = [...(values.before ? [{ label: 'before', root: values.before }] : []), { label: 'after', root: ROOT }];
  for (const [i, { label, root }] of variants.entries()) {
    const env = weftEnv({
      WEFT_STORE: 'clickhouse',
      WEFT_CLICKHOUSE_URL: engine.url,
      WEFT_CLICKHOUSE_DATABASE: `weft_idle_${i}`,
      WEFT_ADMIN_PASSWORD: 'idle-bench-password-1',
      WEFT_SECRET: 'idle-bench-secret-0123456789abcdef',
      WEFT_DATA_DIR: join(dataDir, `weft-${i}`),
    });
    await run(root, ['migrate'], env);
    const servers = [];
    for (let r = 0; r < REPLICAS; r++) servers.push(await spawnWeftServe(env, [], { bin: join(root, 'bin', 'weft.js'), cwd: root }));
    try {
      await new Promise((r) => setTimeout(r, WARMUP * 1000));
      const [cpu0, q0, w0] = [cpuOf(engine.pid!), await queries(engine.url), servers.reduce((s, x) => s + cpuOf(x.child.pid!), 0)];
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      const [cpu1, q1, w1] = [cpuOf(engine.pid!), await queries(engine.url), servers.reduce((s, x) => s + cpuOf(x.child.pid!), 0)];
      // The reading itself is one query.
      results.push({ label, engineCpu: cpu1 - cpu0, queries: q1 - q0 - 1, weftCpu: w1 - w0 });
    } finally {
      for (const s of servers) s.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r)))));
    }
  }
} finally {
  await engine.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`${REPLICAS} idle replicas on one engine, ${SECONDS} s measured after ${WARMUP} s:`);
for (const r of results)
  console.log(
    `  ${r.label.padEnd(6)}  engine CPU ${r.engineCpu.toFixed(2)} s (${((100 * r.engineCpu) / SECONDS).toFixed(1)} % of a core), ` +
      `${r.queries} queries (${(r.queries / SECONDS).toFixed(2)}/s), Weft processes' CPU ${r.weftCpu.toFixed(2)} s`,
  );
