/**
 * One config for the dashboard build (index.html -> src/web/main.tsx, output dist/), the
 * dev server (proxying API paths to a running Weft service), and vitest.
 */
import type { IncomingMessage } from 'node:http';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { earlyScript } from './scripts/earlyScriptPlugin.js';
import { inlineBoot } from './scripts/inlineBootPlugin.js';
import { pagePreload } from './scripts/pagePreloadPlugin.js';
import { precompress } from './scripts/precompressPlugin.js';
import { contractRoutes } from './src/client/routeTablePlugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Where `weft dev` (or you) runs the service; WEFT_API_URL overrides it. */
const apiTarget = process.env.WEFT_API_URL ?? 'http://127.0.0.1:8420';

/**
 * The SPA's own routes (`/`, `/login`, `/<entity>/<project>/calls`, ...) share path shapes with
 * API endpoints (`/call/read`), so paths alone cannot tell them apart. A browser navigation is
 * a GET that accepts HTML; everything else goes to the service. `/docs` is the service's HTML.
 */
function serveSpaInstead(req: IncomingMessage): string | undefined {
  const accept = req.headers.accept ?? '';
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (req.method === 'GET' && accept.includes('text/html') && path !== '/docs') return '/index.html';
  return undefined;
}

/**
 * react-router's package exports only its development build, whose dev-only warnings its
 * production build drops (ENABLE_DEV_WARNINGS); both have one API. Built, the dashboard takes
 * the production one: 0.5 KB gzipped less of the initial JavaScript (≤ 100 KB, `npm run size`).
 */
const reactRouterProduction = (mode: string) =>
  mode === 'production'
    ? [
        {
          find: /^react-router$/,
          replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)),
        },
        {
          find: /^react-router\/dom$/,
          replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)),
        },
      ]
    : [];

const SHARED_WITH_PAGES = [
  '/node_modules/react/',
  ...['utils', 'removable', 'retryer', 'notifyManager'].map((f) => `/node_modules/@tanstack/query-core/build/modern/${f}.js`),
  '/node_modules/@tanstack/react-query/build/modern/QueryClientProvider.js',
];

export default defineConfig(({ mode }) => ({
  root,
  resolve: { alias: reactRouterProduction(mode) },
  plugins: [
    react(),
    contractRoutes(),
    // Brotli and gzip copies of the built files, which the server sends to browsers that take them.
    precompress(),
    // The trace page's first rows, painted from the outline before the app's code is in
    // (docs/trace-outline.md "Painted before the app's code").
    earlyScript(),
    // The trace page's code, fetched beside the entry when a trace is opened first (boot.js):
    // a 10,000-span trace's first paint waited for its chunk waterfall (docs/trace-outline.md
    // "The cold first paint"). The modules are the page's component and loader (app/pages.ts).
    pagePreload([
      {
        path: '/:entity/:project/traces/:traceId',
        modules: ['src/web/features/traces/TracePage.tsx', 'src/web/features/traces/traceLoader.ts'],
      },
    ]),
    // boot.js inline in the built index.html, allowed by its hash: the outline request leaves a
    // round trip sooner. After the plugins above, which place their tags by boot.js's.
    inlineBoot(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One stylesheet, linked from index.html, for every page (67 KB, 13 KB gzipped, cached once):
    // split per page, each page's CSS had to load before Vite imported its code (a round trip
    // first on every page's first visit), and their file names were 0.7 KB gzipped of the
    // initial JavaScript (≤ 100 KB, `npm run size`).
    cssCodeSplit: false,
    rollupOptions: {
      input: fileURLToPath(new URL('./index.html', import.meta.url)),
      // The modules the entry shares with the pages' chunks (React, react-query's core) came as
      // four to six small chunks; as one they gzip ~0.8 KB smaller (initial JS ≤ 100 KB, `npm run
      // size`). Listed by file: a whole package here would pull in what only pages use. A file
      // renamed by an upgrade only falls back to its own small chunk.
      output: {
        codeSplitting: { groups: [{ name: 'shared', test: (id) => SHARED_WITH_PAGES.some((m) => id.replaceAll('\\', '/').includes(m)) }] },
      },
    },
    // index.html preloads everything the entry imports. Of the lazily loaded chunks, only the
    // route loaders' imports are listed beside their import(): a loader's requests start when its
    // whole module graph is in, which on a first visit was 3-4 round trips deep. A page's own
    // shared chunks are found when its chunk arrives (its data is on the way by then); listing
    // them beside every page's import() kept about 2 KB gzipped of file names in the initial
    // JavaScript (≤ 100 KB; `npm run size`), the loaders' cost 0.6 KB.
    //
    // No modulepreload polyfill: 0.25 KB gzipped of the entry, whose margin under the 100 KB goal
    // was 11 bytes, so a renamed chunk's hash could tip it. Current browsers all support
    // <link rel="modulepreload">; an older one (Safari before 17, Firefox before 115) loads the
    // same modules when they are imported, only without the head start.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'html' || /Loaders?-/.test(file) ? deps : []),
    },
  },
  server: {
    proxy: {
      // Everything but Vite's own paths (/@vite, /@id, /@fs, /@react-refresh, /src, /node_modules)
      // and files from public/.
      '^/(?!@|src/|node_modules/|favicon\\.svg|boot\\.js)': {
        target: apiTarget,
        changeOrigin: true,
        bypass: serveSpaInstead,
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    // Generous, because a test server's start (migrations, request threads) and a whole suite
    // share 2 cores with everything else on the machine: these bound a hang, they time nothing.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // CI retries a failed test once, as it does the browser specs; npm test names each test that
    // passed only on its retry ("flaky"), so a flake is seen and fixed, not hidden.
    retry: process.env.CI ? 1 : 0,
    pool: 'forks',
    // A worker keeps the modules it has loaded from one test file to the next: most files import
    // the whole server, and loading it again for each file was most of vitest's import time
    // (docs/performance.md "Test time"). Test servers are built afresh by each file.
    isolate: false,
    // One test file per core. vitest's default is cores - 1, which on a 2-core CI machine runs the
    // files one at a time; but a server test file spends much of its time waiting (HTTP round
    // trips, request threads, scrypt on libuv's pool, the ClickHouse engine, child processes), so
    // a second file in flight uses the core the first leaves idle. Files share nothing but the
    // ClickHouse engine, where each has databases of its own (temp dirs, port 0, forks' own env).
    maxWorkers: Math.max(availableParallelism(), 2),
    // One ClickHouse engine per run for the ClickHouse store suites (WEFT_TEST_STORES), and the
    // test users' password hashes, made once per run instead of once per test file; the built
    // server that spawned `weft` processes and the tests' threads run (threads/threadEntry.ts).
    env: { WEFT_THREADS_FROM_BUILD: '1' },
    globalSetup: [
      'src/server/testing/clickhouseGlobalSetup.ts',
      'src/server/testing/testPasswords.ts',
      'src/server/testing/builtServerGlobalSetup.ts',
    ],
  },
}));
