/**
 * Keeps the built dashboard (dist/) in step with its sources before `weft serve` starts, so
 * `npm start` on a fresh checkout or after a `git pull` just works. The build runs Vite's JS
 * API with the project's vite.config.ts, the same build as `npm run build` (scripts/build.js).
 *
 * A failed build never stops the service: the API starts anyway, and the message says how to
 * fix it. Vite is imported only when a build is needed, so a fresh dist/ costs no start time.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json, index.html and vite.config.ts live). */
export const PROJECT_ROOT = projectRoot(fileURLToPath(new URL('.', import.meta.url)));

/** The nearest folder above `from` holding package.json: the same from src/server/process/ and from the bundle in build/server/. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir.endsWith(sep) ? dir : dir + sep;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

/** What the dashboard build needs to do: nothing, a build, or nothing it can (no sources yet). */
export type DashboardBuildNeed = 'fresh' | 'stale' | 'no-sources';

/** Files whose change means the bundle must be rebuilt; directories are walked. */
const SOURCES = [
  'src/web',
  'src/contract',
  'index.html',
  'vite.config.ts',
  'public',
  'scripts/pagePreloadPlugin.ts',
  'scripts/earlyScriptPlugin.ts',
  'scripts/inlineBootPlugin.ts',
  'scripts/precompressPlugin.ts',
];

/** Compares dist/index.html with the newest source file; an install without sources serves its build as is. */
export function dashboardBuildNeed(root: string = PROJECT_ROOT): DashboardBuildNeed {
  if (!existsSync(join(root, 'src/web')) || !existsSync(join(root, 'index.html'))) {
    return existsSync(join(root, 'dist/index.html')) ? 'fresh' : 'no-sources';
  }
  const built = mtimeOf(join(root, 'dist/index.html'));
  if (built === null) return 'stale';
  return SOURCES.some((source) => newerThan(join(root, source), built)) ? 'stale' : 'fresh';
}

/** What happened: the state the dashboard is served in. */
export type DashboardBuildResult = 'fresh' | 'built' | 'failed' | 'no-sources';

/**
 * Builds the dashboard when dist/ is missing or stale, printing progress to `out`.
 * Never throws: a failure is reported and returned as 'failed'.
 */
export async function ensureDashboardBuilt(options: { root?: string; out?: NodeJS.WritableStream } = {}): Promise<DashboardBuildResult> {
  const root = options.root ?? PROJECT_ROOT;
  const out = options.out ?? process.stdout;
  const need = dashboardBuildNeed(root);
  if (need === 'no-sources') {
    out.write('Dashboard sources (index.html, src/web) are not in this checkout yet: serving the API only.\n');
    return need;
  }
  if (need === 'fresh') return need;
  out.write('Building the dashboard… ');
  const started = Date.now();
  try {
    const { build } = await import('vite').catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
      // A production install (dev dependencies omitted) whose dist/ is older than its sources.
      throw new Error('Vite, a dev dependency, is not installed here: build where it is (npm ci && npm run build), then prune.');
    });
    // Silent: Vite's own report would interleave with ours; errors arrive as the thrown error.
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent', mode: 'production' });
    const seconds = (Date.now() - started) / 1000;
    out.write(`done in ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s\n`);
    return 'built';
  } catch (err) {
    out.write(`failed.\n\n${(err as Error).message ?? String(err)}\n\n`);
    out.write(
      'The API starts anyway; the dashboard shows the last good build, if any.\n' +
        'Fix the error above, then run `npm run build` (or restart `npm start`). `npm run dev` shows\n' +
        'errors in the browser with hot reload.\n\n',
    );
    return 'failed';
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** True when `path`, or anything below it, changed after `time` (a directory's own mtime catches deletions). */
function newerThan(path: string, time: number): boolean {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return false;
  }
  if (stat.mtimeMs > time) return true;
  return stat.isDirectory() && readdirSync(path).some((name) => newerThan(join(path, name), time));
}
