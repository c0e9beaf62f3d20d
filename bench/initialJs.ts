/**
 * The dashboard's initial JavaScript: the entry script index.html loads and every chunk it
 * imports statically (whether index.html preloads it or not), each gzipped with zlib at level 9.
 * `npm run size` prints it beside the 100 KB goal (docs/performance.md); bench:dashboard prints it too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_GOAL = 100 * 1024;

export interface InitialJs {
  files: { file: string; raw: number; gzip: number }[];
  gzip: number;
}

/** Sums the gzipped size of the scripts the first page cannot run without. */
export function measureInitialJs(dist: string): InitialJs {
  // A page's <template> of preload links is that page's code, added only when it is the one opened
  // (scripts/pagePreloadPlugin.ts), not code every page loads.
  const html = readFileSync(join(dist, 'index.html'), 'utf8').replace(/<template[\s\S]*?<\/template>/g, '');
  const queue = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/^\//, ''));
  const seen = new Set<string>();
  const files: InitialJs['files'] = [];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const bytes = readFileSync(join(dist, file));
    files.push({ file: `/${file}`, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    // Static imports only (`import … from"./x.js"`, `import"./x.js"`); import() is lazy.
    for (const m of bytes.toString('utf8').matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) {
      const next = join(file, '..', m[1]!);
      if (existsSync(join(dist, next))) queue.push(next);
    }
  }
  return { files, gzip: files.reduce((s, f) => s + f.gzip, 0) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints each file and the total beside the goal. */
export function printInitialJs(js: InitialJs): void {
  console.log('\nInitial JavaScript (the entry and every chunk it imports statically), gzipped:');
  for (const f of js.files) console.log(`  ${f.file.padEnd(44)} ${kb(f.raw).padStart(10)} raw  ${kb(f.gzip).padStart(9)} gzip`);
  console.log(`  total ${kb(js.gzip)} (goal ≤ ${kb(INITIAL_JS_GOAL)}) ${js.gzip <= INITIAL_JS_GOAL ? '✓' : '✗'}`);
}

// `npm run size`: builds when the bundle is stale, then prints.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildDashboardIfStale } = await import('../e2e/fixtures/weftServer.js');
  const { PROJECT_ROOT } = await import('../src/server/process/dashboardBuild.js');
  await buildDashboardIfStale();
  printInitialJs(measureInitialJs(join(PROJECT_ROOT, 'dist')));
}
