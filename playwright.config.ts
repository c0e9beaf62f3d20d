/**
 * Browser tests for the dashboard: a real Weft server on a temporary SQLite file (started in
 * e2e/fixtures/globalSetup.ts) and a real Chromium from the system — never a browser download.
 * Run through `npm run test:e2e` (scripts/e2e.js finds the Chromium).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/fixtures/globalSetup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // `list` prints "N passed / N failed", which scripts/test.js reads.
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    },
  },
});
