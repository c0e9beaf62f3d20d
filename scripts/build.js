#!/usr/bin/env node
/**
 * `npm run build`: the server, bundled by esbuild into build/server/, and the dashboard, built by
 * Vite into dist/. `npm start` (bin/weft.js) runs build/server/cli.js and rebuilds the server
 * first when a source is newer than it (ensureServerBuilt); production installs build once and
 * drop the build tools (docs/operations.md, "Building and installing").
 *
 *   node scripts/build.js [--server-only] [--out <dir>]     (<dir>/build/server and <dir>/dist)
 *
 * The bundle sits two directories below the root, like src/server/, so code that finds files
 * relative to its own module (`new URL('../../package.json', import.meta.url)`) finds the same
 * ones; files loaded beside a module (worker entries, a JSON table) are copied beside the bundle.
 * Packages stay external: they are loaded from node_modules as they are.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Bundle entry points: name in build/server/ → source. */
const ENTRIES = {
  cli: 'src/server/process/cli.ts',
  requestWorker: 'src/server/threads/requestWorker.ts',
  retentionWorker: 'src/server/jobs/retentionWorker.ts',
};
/** Files a module loads from beside itself (`new URL('./x', import.meta.url)`), copied beside the bundle. */
const BESIDE = [
  'src/server/threads/workerBoot.mjs',
  'src/server/store/sqlite/walCheckpointWorker.mjs',
  'src/server/domain/feedback/emojiTable.json',
];
/** Besides the bundle's own inputs, files whose change makes the build stale. */
const ALSO_STALE_ON = ['package.json', 'scripts/build.js', ...BESIDE];
/** What the last build read (relative to the root), written last: its absence means no complete build. */
const STAMP = 'inputs.json';

/** Bundles the server into `<out>/build/server`. Returns the seconds it took. */
export async function buildServer({ out = ROOT } = {}) {
  const started = Date.now();
  const { build } = await import('esbuild');
  const outdir = join(out, 'build', 'server');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Chunks in the same directory: their import.meta.url must resolve like the entries'.
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // Written file by file (each renamed into place), chunks before entries and the stamp last, so
  // a server starting meanwhile never loads half a build; another process building the same
  // sources at once writes the same bytes.
  mkdirSync(outdir, { recursive: true });
  const written = new Set([STAMP]);
  const files = [...result.outputFiles].sort((a, b) => isEntry(a.path) - isEntry(b.path));
  for (const file of files) {
    writeAtomically(file.path, file.contents);
    written.add(relative(outdir, file.path));
  }
  for (const source of BESIDE) {
    const target = join(outdir, source.split('/').at(-1));
    writeAtomically(target, readFileSync(join(ROOT, source)));
    written.add(relative(outdir, target));
  }
  for (const name of readdirSync(outdir)) if (!written.has(name)) rmSync(join(outdir, name), { force: true });
  const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...ALSO_STALE_ON])].sort();
  writeAtomically(join(outdir, STAMP), JSON.stringify({ inputs }, null, 1));
  return (Date.now() - started) / 1000;
}

const isEntry = (path) => (Object.keys(ENTRIES).some((name) => path.endsWith(`/${name}.js`)) ? 1 : 0);

function writeAtomically(path, contents) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

/** 'fresh', or why the server must be (re)built. */
export function serverBuildNeed(root = ROOT) {
  const stamp = join(root, 'build', 'server', STAMP);
  let built;
  let inputs;
  try {
    built = statSync(stamp).mtimeMs;
    inputs = JSON.parse(readFileSync(stamp, 'utf8')).inputs;
  } catch {
    return 'missing';
  }
  for (const input of inputs) {
    let changed;
    try {
      changed = statSync(join(root, input)).mtimeMs;
    } catch {
      return `${input} is gone`;
    }
    if (changed > built) return `${input} changed`;
  }
  return 'fresh';
}

/**
 * Before `weft` runs the build: in a checkout, builds the server when a source is newer. Without
 * esbuild (a production install, dev dependencies omitted) a stale build is served as it is, with
 * a warning, and a missing one is an error saying how to make it.
 */
export async function ensureServerBuilt({ out = process.stderr } = {}) {
  const need = serverBuildNeed();
  if (need === 'fresh') return;
  if (!canImport('esbuild')) {
    const how = 'build it where the dev dependencies are installed: npm ci && npm run build (then npm prune --omit=dev)';
    if (need === 'missing') throw new Error(`This install has no built server (build/server/) and no build tools to make one; ${how}.`);
    out.write(
      `The built server is older than its sources (${need}), and esbuild is not installed: serving it as built. To update, ${how}.\n`,
    );
    return;
  }
  out.write(need === 'missing' ? 'Building the server… ' : `Rebuilding the server (${need})… `);
  const seconds = await buildServer();
  out.write(`done in ${seconds.toFixed(1)} s\n`);
}

function canImport(name) {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Builds the dashboard into `<out>/dist` with the project's vite.config.ts. Returns the seconds it took. */
export async function buildDashboard({ out = ROOT } = {}) {
  const started = Date.now();
  const { build } = await import('vite');
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: join(out, 'dist'), emptyOutDir: true },
  });
  return (Date.now() - started) / 1000;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : ROOT;
  if (!out || !existsSync(out)) throw new Error('--out <dir>: an existing directory');
  console.log(`Server: build/server/ in ${(await buildServer({ out })).toFixed(1)} s`);
  if (!args.includes('--server-only')) console.log(`Dashboard: dist/ in ${(await buildDashboard({ out })).toFixed(1)} s`);
}
