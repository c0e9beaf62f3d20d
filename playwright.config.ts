/**
 * Browser tests for the dashboard: real Weft servers (started in e2e/fixtures/globalSetup.ts)
 * and a real Chromium from the system — never a browser download. One project per store in
 * WEFT_TEST_STORES (default both): `sqlite` runs every spec, `clickhouse` the specs of
 * CLICKHOUSE_SPECS against a server on a ClickHouse engine; the specs of SCREEN_SPECS also on
 * other screens (e2e/fixtures/screens.ts).
 * Run through `npm run test:e2e` (scripts/e2e.js finds the Chromium and the engine).
 */
import { defineConfig } from '@playwright/test';
import { selectedTestStores } from './src/server/testing/testStores.js';
import { CLICKHOUSE_SPECS } from './e2e/fixtures/stores.js';
import { DESKTOP, EXTRA_SCREENS, SCREEN_SPECS, SCREENS, WIDE_ONLY } from './e2e/fixtures/screens.js';
import type { E2eOptions } from './e2e/fixtures/test.js';
import { findChromium } from './scripts/chromium.js';

// Other screens (e2e/fixtures/screens.ts): the rough-edge tests (tagged SCREENS) at 390 × 844
// dark on SQLite always; WEFT_E2E_SCREENS=all adds 1280 × 800 dark and 390 × 844 light. Tests of
// a 1280 px layout itself (tagged WIDE_ONLY) stay on the wide screens.
const screens = process.env.WEFT_E2E_SCREENS === 'all' ? EXTRA_SCREENS : EXTRA_SCREENS.slice(0, 1);
const projects = [
  { name: 'sqlite', use: { store: 'sqlite' as const } },
  ...screens.map((screen) => ({
    name: `sqlite-${screen.name}`,
    testMatch: SCREEN_SPECS,
    grep: new RegExp(SCREENS),
    grepInvert: screen.viewport.width < DESKTOP.width ? new RegExp(WIDE_ONLY) : undefined,
    use: { store: 'sqlite' as const, viewport: screen.viewport, colorScheme: screen.colorScheme },
  })),
  { name: 'clickhouse', testMatch: CLICKHOUSE_SPECS, use: { store: 'clickhouse' as const } },
];
const stores = selectedTestStores(process.env).names;

export default defineConfig<E2eOptions>({
  testDir: 'e2e',
  globalSetup: './e2e/fixtures/globalSetup.ts',
  projects: projects.filter((p) => stores.includes(p.use.store)),
  fullyParallel: true,
  // CI: one worker, as the browser, the two servers and the ClickHouse engine already keep both
  // cores busy; two took as long in CI (10.6 min against 10.4) with every test twice as slow,
  // and a 10 MB payload's expansion then passed its 15 s expect bound. A local run (SQLite) is
  // latency-bound and outlasts vitest beside it, so it takes two (docs/performance.md "Test time").
  workers: Number(process.env.WEFT_E2E_WORKERS) || (process.env.CI || stores.includes('clickhouse') ? 1 : 2),
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // Generous, as each test shares the cores with the servers and the engine (and a sign-in's
  // scrypt): these bound a hang, they time nothing.
  timeout: 45_000,
  expect: { timeout: 15_000 },
  // `list` prints "N passed / N failed" over both projects, which scripts/test.js reads.
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: DESKTOP,
    colorScheme: 'light',
    // Recorded on a retry only (CI retries once): recording every test for the few that fail was
    // a quarter of the browser tests' CPU (docs/performance.md "Test time"). `--trace on` for all.
    trace: 'on-first-retry',
    // Spinners and skeletons hold still, as for a user who asks for less motion (styles.css).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: findChromium() ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    },
  },
});
