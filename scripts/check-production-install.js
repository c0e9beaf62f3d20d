#!/usr/bin/env node
/**
 * CI's check of a production install (docs/operations.md, "Building and installing"): builds this
 * checkout (`npm run build`, with its dev dependencies), copies the files git knows plus the
 * build to a temporary directory, runs `npm ci --omit=dev` there (no tsx, Vite or esbuild), then
 * `npm start` on a temporary data directory: an SDK-style round trip (POST /call/start, then
 * /calls/stream_query, HTTP Basic api:<key>) and the dashboard's index.html must answer.
 *
 *   node scripts/check-production-install.js [--keep]      (--keep leaves the directory)
 *
 * Prints the install's time and node_modules size. Exit status 0 when everything answered.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weft-production-'));
const run = (cmd, args, cwd = dir, env = process.env) => execFileSync(cmd, args, { cwd, env, stdio: 'inherit' });
let server;

try {
  run('npm', ['run', 'build'], ROOT);
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && file !== 'node_modules');
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file), { preserveTimestamps: true, errorOnExist: false, force: true });
  }
  // After the sources and with new times, as a build made after the checkout (the directories just
  // made for the sources are newer than the build's files otherwise).
  for (const built of ['build/server', 'dist']) cpSync(join(ROOT, built), join(dir, built), { recursive: true });

  // npm ci empties node_modules first, through a symlink too: a linked one (a worktree's) must never be copied.
  if (existsSync(join(dir, 'node_modules'))) throw new Error(`${dir}/node_modules exists before the install`);
  const started = Date.now();
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund']);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const size = execFileSync('du', ['-sh', 'node_modules'], { cwd: dir, encoding: 'utf8' }).split('\t')[0];
  console.log(`npm ci --omit=dev: ${seconds} s, node_modules ${size}`);
  for (const devOnly of ['tsx', 'vite', 'esbuild', '@chdb/lib-linux-x64-gnu']) {
    let present = true;
    try {
      readFileSync(join(dir, 'node_modules', devOnly, 'package.json'));
    } catch {
      present = false;
    }
    if (present) throw new Error(`${devOnly} is in the production install: it must be a dev dependency`);
  }

  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', WEFT_DATA_DIR: join(dir, 'data'), WEFT_ADMIN_PASSWORD: 'production-check' };
  for (const name of Object.keys(env))
    if (name.startsWith('WEFT_') && !(name in { WEFT_DATA_DIR: 1, WEFT_ADMIN_PASSWORD: 1 })) delete env[name];
  server = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not listen within 90 s:\n${output}`)), 90_000);
    const read = (chunk) => {
      output += chunk;
      const m = /Weft is running at (http:\/\/\S+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      resolve(m[1]);
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  if (/Building|Rebuilding/.test(output)) throw new Error(`npm start built something in a production install:\n${output}`);

  const key = execFileSync(process.execPath, ['bin/weft.js', 'key', 'create', '--user', 'admin'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  }).trim();
  const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  const post = (path, body) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const start = await post('/call/start', {
    start: { project_id: 'admin/check', op_name: 'check.op', started_at: new Date().toISOString(), attributes: {}, inputs: { x: 1 } },
  });
  if (start.status !== 200) throw new Error(`/call/start answered ${start.status}: ${await start.text()}`);
  const { id } = await start.json();
  const rows = (await (await post('/calls/stream_query', { project_id: 'admin/check' })).text())
    .split('\n')
    .filter(Boolean)
    .map(JSON.parse);
  if (rows.length !== 1 || rows[0].id !== id) throw new Error(`/calls/stream_query did not return the call: ${JSON.stringify(rows)}`);
  const page = await fetch(`${url}/calls`, { headers: { accept: 'text/html' } });
  const html = await page.text();
  if (page.status !== 200 || !/<script[^>]+src="\/assets\//.test(html))
    throw new Error(`the dashboard did not load (${page.status}):\n${html.slice(0, 500)}`);
  console.log(`Production install OK: built server, round trip and dashboard at ${url}`);
} catch (err) {
  console.error(`check-production-install: ${err.message}`);
  process.exitCode = 1;
} finally {
  if (server) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve()));
  }
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
}
