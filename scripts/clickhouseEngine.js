// A real ClickHouse server for development and tests, from the npm package `chdb` alone.
//
// `@chdb/lib-linux-x64-gnu` (the platform library of the npm package `chdb`) ships `libchdb.so`,
// which is all of ClickHouse. Its C function `chdb_query_cmdline(argc, argv)` is
// clickhouse-local's `main`, and clickhouse-local can open ClickHouse's own HTTP and TCP
// listeners (`SYSTEM START LISTEN HTTP`); a last, blocking query keeps them open. So the
// engine is that library driven by a 20-line launcher (see docs/clickhouse.md "A local engine for development and tests"):
//
// The library is fetched from the npm registry on first use (ensureLibChdb), not installed with
// Weft: a user's `npm install` stays small.
//
// - the C launcher below, compiled once with the system `cc` into node_modules/.cache/weft/
//   (0.1 s; Debian's node machines have gcc because node-gyp needs it), or
// - python3's ctypes doing the same three calls, when there is no compiler.
//
// What differs from clickhouse-server is server-only machinery (replication, ON CLUSTER DDL,
// system log tables, users and passwords); the HTTP interface is the same code.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const LAUNCHER_C = `#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
typedef void *(*cmdline_fn)(int, char **);
typedef const char *(*err_fn)(void *);
int main(int argc, char **argv) {
  const char *lib = getenv("LIBCHDB");
  void *h = dlopen(lib ? lib : "libchdb.so", RTLD_NOW | RTLD_GLOBAL);
  if (!h) { fprintf(stderr, "dlopen: %s\\n", dlerror()); return 2; }
  cmdline_fn q = (cmdline_fn)dlsym(h, "chdb_query_cmdline");
  err_fn e = (err_fn)dlsym(h, "chdb_result_error");
  if (!q || !e) { fprintf(stderr, "dlsym: %s\\n", dlerror()); return 2; }
  argv[0] = "clickhouse";
  void *r = q(argc, argv);
  const char *msg = r ? e(r) : "no result";
  if (msg) { fprintf(stderr, "%s\\n", msg); return 1; }
  return 0;
}
`;

const LAUNCHER_PY = `import ctypes, os, sys
lib = ctypes.CDLL(os.environ["LIBCHDB"], mode=ctypes.RTLD_GLOBAL)
lib.chdb_query_cmdline.restype = ctypes.c_void_p
lib.chdb_result_error.restype = ctypes.c_char_p
lib.chdb_result_error.argtypes = [ctypes.c_void_p]
args = [b"clickhouse"] + [a.encode() for a in sys.argv[1:]]
argv = (ctypes.c_char_p * len(args))(*args)
r = lib.chdb_query_cmdline(len(args), argv)
msg = lib.chdb_result_error(r) if r else b"no result"
if msg:
    sys.stderr.write(msg.decode(errors="replace") + "\\n")
    sys.exit(1)
`;

/**
 * The engine's npm package and version. It is not a dependency of Weft (543 MB unpacked, for tests
 * and `npm run clickhouse` only): ensureLibChdb() fetches it from the npm registry on first use.
 */
export const ENGINE_VERSION = '26.7.3-stable.1';
const ENGINE_PACKAGES = {
  'linux-x64': '@chdb/lib-linux-x64-gnu',
  'linux-arm64': '@chdb/lib-linux-arm64-gnu',
  'darwin-arm64': '@chdb/lib-darwin-arm64',
  'darwin-x64': '@chdb/lib-darwin-x64',
};

/** Where a fetched engine is kept: WEFT_ENGINE_CACHE, else beside the launcher (`npm ci` clears both). */
const engineCache = () => process.env.WEFT_ENGINE_CACHE || join(root, 'node_modules', '.cache', 'weft', `chdb-${ENGINE_VERSION}`);

const libIn = (dir) => ['libchdb.so', 'libchdb.dylib'].map((name) => join(dir, name)).find((file) => existsSync(file)) ?? null;

/** Where `libchdb.so` is: fetched into the cache, or installed by hand as a package; else null. */
export function findLibChdb() {
  const fetched = libIn(join(engineCache(), 'package'));
  if (fetched) return fetched;
  const require = createRequire(join(root, 'package.json'));
  for (const pkg of Object.values(ENGINE_PACKAGES)) {
    try {
      const lib = libIn(dirname(require.resolve(`${pkg}/package.json`)));
      if (lib) return lib;
    } catch {
      // that platform's package is not installed; try the next
    }
  }
  return null;
}

/**
 * findLibChdb(), fetching the engine first when it is missing: `npm pack` (which checks the
 * tarball's integrity and keeps it in npm's cache) and `tar` into a temporary directory, renamed
 * into place so a run stopped half-way leaves nothing that looks complete. Null when this
 * platform has no engine package or the registry cannot be reached (the error is printed).
 */
export function ensureLibChdb({ out = process.stderr } = {}) {
  const found = findLibChdb();
  if (found) return found;
  const pkg = ENGINE_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) return null;
  const cache = engineCache();
  const partial = `${cache}.partial-${process.pid}`;
  const began = Date.now();
  out.write(`Fetching the ClickHouse test engine (${pkg}@${ENGINE_VERSION}, about 540 MB unpacked) from the npm registry… `);
  try {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const packed = spawnSync('npm', ['pack', `${pkg}@${ENGINE_VERSION}`, '--pack-destination', partial, '--silent'], { encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${(packed.stderr || packed.stdout).trim()}`);
    const tarball = join(partial, packed.stdout.trim().split('\n').at(-1));
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', partial], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.trim()}`);
    rmSync(tarball);
    rmSync(cache, { recursive: true, force: true });
    renameSync(partial, cache);
    out.write(`done in ${Math.round((Date.now() - began) / 1000)} s\n`);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    out.write(`failed.\n${err instanceof Error ? err.message : err}\n`);
    return null;
  }
  return findLibChdb();
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** The launcher command: the compiled C program when a compiler exists, else python3 ctypes. */
export function launcherCommand() {
  const cache = join(root, 'node_modules', '.cache', 'weft');
  const binary = join(cache, 'chserver');
  if (existsSync(binary)) return { command: binary, args: [], kind: 'c' };
  mkdirSync(cache, { recursive: true });
  if (has('cc')) {
    const source = join(cache, 'chserver.c');
    writeFileSync(source, LAUNCHER_C);
    const built = spawnSync('cc', ['-O1', '-o', binary, source, '-ldl'], { encoding: 'utf8' });
    if (built.status === 0) return { command: binary, args: [], kind: 'c' };
  }
  if (has('python3')) {
    const script = join(cache, 'chserver.py');
    writeFileSync(script, LAUNCHER_PY);
    return { command: 'python3', args: [script], kind: 'python3' };
  }
  return null;
}

/** How to get an engine, said once wherever one is missing. */
export const ENGINE_HELP =
  `The ClickHouse test engine is the library of the npm package chdb (${Object.values(ENGINE_PACKAGES).join(', ')}), fetched from the npm registry on first use into ` +
  'node_modules/.cache/weft (WEFT_ENGINE_CACHE to keep it elsewhere) and run by a launcher built with a C compiler (cc) or python3. ' +
  'It needs Linux or macOS, the npm registry once, and cc or python3; or point WEFT_TEST_CLICKHOUSE_URL at a ClickHouse server (25.8 or newer).';

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The test runs' engines answer queries on one thread each: the tests' tables hold a few rows, and
 * a second thread per query only added its start-up, 40 % of the engine's CPU on small FINAL reads
 * (docs/performance.md "Test time"). Benchmarks use the engine's default.
 */
export const TEST_ENGINE_SETTINGS = { max_threads: 1 };

/**
 * Starts an engine on a data directory and resolves once it answers /ping.
 * `config` is server configuration XML (`<clickhouse>...</clickhouse>`: remote_servers, macros,
 * a testkeeper `zookeeper`), written into the data directory and passed as `--config-file`;
 * give a `tcpPort` too when other engines reach this one through a `Distributed` table.
 * `settings` are query settings every session starts with (TEST_ENGINE_SETTINGS).
 * Returns { url, httpPort, tcpPort, pid, launcher, startMs, stop() }.
 */
export async function startClickHouseEngine({ dataDir, httpPort, tcpPort, config, settings = {}, quiet = true } = {}) {
  const lib = ensureLibChdb();
  if (!lib) throw new Error(`No ClickHouse engine (libchdb). ${ENGINE_HELP}`);
  const launcher = launcherCommand();
  if (!launcher) throw new Error(`Neither cc nor python3 is available to load libchdb. ${ENGINE_HELP}`);
  mkdirSync(dataDir, { recursive: true });
  const http = httpPort ?? (await freePort());
  const listen = tcpPort ? 'SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP;' : 'SYSTEM START LISTEN HTTP;';
  const configFile = join(dataDir, 'weft-engine.xml');
  if (config) writeFileSync(configFile, config);
  const args = [
    ...launcher.args,
    ...(config ? [`--config-file=${configFile}`] : []),
    `--path=${dataDir}`,
    `--http_port=${http}`,
    ...(tcpPort ? [`--tcp_port=${tcpPort}`] : []),
    '--listen_host=127.0.0.1',
    ...Object.entries(settings).map(([name, value]) => `--${name}=${value}`),
    '--logger.level=warning',
    // The last statement blocks for ~3 years and keeps the listeners open; SIGTERM stops it.
    `--query=${listen} SELECT sleepEachRow(1) FROM numbers(100000000) SETTINGS max_block_size=1 FORMAT Null`,
  ];
  const began = Date.now();
  const child = spawn(launcher.command, args, {
    env: { ...process.env, LIBCHDB: lib },
    stdio: ['ignore', 'ignore', quiet ? 'pipe' : 'inherit'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  let exited = null;
  // The engine never outlives the process that started it (a test run stopped by a signal
  // skips its teardown): on exit, a last synchronous kill.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    process.removeListener('exit', killOnExit);
  });
  const url = `http://127.0.0.1:${http}`;
  for (;;) {
    if (exited) throw new Error(`The ClickHouse engine exited (${exited.code ?? exited.signal}) before listening: ${stderr.trim()}`);
    try {
      const res = await fetch(`${url}/ping`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - began > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`The ClickHouse engine did not answer /ping within 60 s: ${stderr.trim()}`);
    }
    await sleep(50);
  }
  const startMs = Date.now() - began;
  const stop = async () => {
    if (exited) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  };
  return { url, httpPort: http, tcpPort: tcpPort ?? null, pid: child.pid, launcher: launcher.kind, startMs, stop };
}
