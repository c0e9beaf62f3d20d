#!/usr/bin/env node
// A production smoke run on whichever Node runs this script (CI: Node 24, the suite's, so its
// install unpacks the better-sqlite3 binary CI's npm ci cached; docs/operations.md "Node versions"). It does what an
// operator does: build in this checkout (dev dependencies are here), copy the tree to a temporary
// directory, `npm ci --omit=dev` there (better-sqlite3 built for this Node), `npm start` on a free
// port with a fresh data directory (no dev-only package installed, nothing rebuilt), then an SDK round trip (call start, end, read back with an API
// key made by `weft key create`), the dashboard's page and its script, and SIGTERM.
// Usage: node scripts/smoke.js [--keep]   (--keep leaves the temporary directory for a look)
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saveBinary, writeRc } from './sqlite-binary-cache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const log = (msg) => console.log(`smoke: ${msg}`);

/** Runs a command to completion, output shown; throws on failure. */
function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  return r;
}

/**
 * Copies a tree keeping every modification time, directories' too (fs.cpSync leaves a directory
 * the time of its copy, which would make a fresh build look older than its sources).
 */
function copyTree(from, to, skip) {
  const st = lstatSync(from);
  if (st.isSymbolicLink()) return symlinkSync(readlinkSync(from), to);
  if (st.isDirectory()) {
    mkdirSync(to);
    for (const name of readdirSync(from)) if (!skip.has(name)) copyTree(join(from, name), join(to, name), skip);
  } else copyFileSync(from, to);
  utimesSync(to, st.atime, st.mtime);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function check(cond, what) {
  if (!cond) throw new Error(`smoke: ${what}`);
}

const work = mkdtempSync(join(tmpdir(), 'weft-smoke-'));
const app = join(work, 'app');
const dataDir = join(work, 'data');
let server;
let serverExit;

try {
  log(
    `node ${process.version} (modules ABI ${process.versions.modules}), npm ${spawnSync('npm', ['-v'], { encoding: 'utf8' }).stdout.trim()}`,
  );
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

  // 1. Build where the dev dependencies are (the way the Dockerfile's build stage does).
  if (pkg.scripts?.build) {
    const t = Date.now();
    run('npm', ['run', 'build'], { cwd: root });
    log(`npm run build: ${seconds(t)} s`);
  }

  // 2. A copy without dependencies, data or VCS: what a production host receives.
  copyTree(root, app, new Set(['node_modules', '.git', '.weft', 'test-results']));

  // 3. Production install. better-sqlite3 comes from the binary cache, else it is compiled
  //    against this Node's headers (npm's nodedir, or npm_config_nodedir if set).
  let t = Date.now();
  writeRc(app);
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app });
  const size = spawnSync('du', ['-sh', 'node_modules'], { cwd: app, encoding: 'utf8' }).stdout.split('\t')[0];
  log(`npm ci --omit=dev: ${seconds(t)} s, node_modules ${size}; ${saveBinary(app)}`);
  for (const devOnly of ['tsx', 'vite', 'esbuild', '@chdb/lib-linux-x64-gnu']) {
    check(!existsSync(join(app, 'node_modules', devOnly)), `${devOnly} is in the production install: it must be a dev dependency`);
  }

  // 4. Start it.
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  // Only the settings below: a WEFT_STORE or WEFT_TLS in CI's environment is not this run's.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WEFT_')));
  const env = {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    WEFT_DATA_DIR: dataDir,
    WEFT_ADMIN_PASSWORD: password,
    NODE_ENV: 'production',
  };
  t = Date.now();
  server = spawn('npm', ['start'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  for (const stream of [server.stdout, server.stderr]) {
    stream.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
  }
  serverExit = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const exited = await Promise.race([serverExit, sleep(250).then(() => null)]);
    check(!exited, `the server exited before answering: ${JSON.stringify(exited)}`);
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    check(Date.now() < deadline, 'the server did not answer /health within 120 s');
  }
  log(`started and healthy: ${seconds(t)} s`);
  check(!/Building|Rebuilding/.test(output), 'npm start built something in a production install: the build must come with it');

  // 5. An API key, as the README says to make one.
  const key = run(process.execPath, ['bin/weft.js', 'key', 'create', '--user', 'admin'], {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  }).stdout.trim();
  check(/^\S{20,}$/.test(key), `weft key create printed no key: ${JSON.stringify(key)}`);

  // 6. The SDK round trip: what the Weave SDKs send, with their HTTP Basic api:<key>.
  const headers = { authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`, 'content-type': 'application/json' };
  const post = async (path, body) => {
    const r = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await r.text();
    check(r.status === 200, `POST ${path} answered ${r.status}: ${text.slice(0, 500)}`);
    return text;
  };
  const project = 'smoke/roundtrip';
  const id = randomUUID();
  const now = Date.now();
  await post('/call/start', {
    start: {
      project_id: project,
      id,
      op_name: 'smoke_op',
      started_at: new Date(now - 1250).toISOString(),
      inputs: { question: 'Where is my order?' },
      attributes: {},
    },
  });
  await post('/call/end', {
    end: { project_id: project, id, ended_at: new Date(now).toISOString(), output: 'It ships today.', summary: {} },
  });
  const lines = (await post('/calls/stream_query', { project_id: project, filter: { call_ids: [id] } }))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  check(lines.length === 1, `stream_query returned ${lines.length} calls, expected 1`);
  const [call] = lines;
  check(call.id === id && call.output === 'It ships today.', `the call came back wrong: ${JSON.stringify(call)}`);
  check(call.inputs?.question === 'Where is my order?', `inputs came back wrong: ${JSON.stringify(call.inputs)}`);
  check(call.summary?.weave?.status === 'success', `summary.weave.status: ${JSON.stringify(call.summary)}`);
  log('SDK round trip: call start, end, read back');

  // 7. The dashboard: its page, and the script that page loads.
  const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } }); // as a browser asks
  const html = await page.text();
  check(page.status === 200 && /text\/html/.test(page.headers.get('content-type') ?? ''), `GET / answered ${page.status}`);
  check(html.includes('<div id="root">'), 'GET / is not the dashboard page');
  const script = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1];
  check(script, 'the dashboard page names no module script');
  const js = await fetch(new URL(script, base));
  check(js.status === 200 && /javascript/.test(js.headers.get('content-type') ?? ''), `GET ${script} answered ${js.status}`);
  check((await js.text()).length > 10_000, `${script} is too small to be the built dashboard`);
  log(`dashboard: / and ${script}`);

  // 8. SIGTERM (to npm and the server under it) must stop it within the drain time.
  t = Date.now();
  process.kill(-server.pid, 'SIGTERM');
  const stop = await Promise.race([serverExit, sleep(30_000).then(() => null)]);
  check(stop, 'the server did not stop within 30 s of SIGTERM');
  server = undefined;
  log(`stopped on SIGTERM in ${seconds(t)} s (${JSON.stringify(stop)})`);
  log(`passed in ${seconds(started)} s`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  if (server) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (keep) log(`left ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
