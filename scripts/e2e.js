#!/usr/bin/env node
// `npm run test:e2e`: the dashboard's browser tests (Playwright, e2e/*.spec.ts) in a real
// Chromium against real Weft servers: one on a temporary SQLite file (every spec) and, when
// WEFT_TEST_STORES includes clickhouse (the default), one on a ClickHouse engine (the specs of
// e2e/fixtures/stores.ts). Never downloads a browser: it uses CHROMIUM_PATH, Debian's headless
// shell or Chromium, or a Chromium Playwright installed earlier (scripts/chromium.js). Without one, or without a
// ClickHouse engine, it says so loudly and skips what needs it; with CI set, skipping is a failure.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { register } from 'tsx/esm/api';
import { CHROMIUM_CANDIDATES, findChromium } from './chromium.js';
import { ENGINE_HELP, ensureLibChdb, launcherCommand } from './clickhouseEngine.js';

register();
const { selectedTestStores } = await import('../src/server/testing/testStores.ts');

const bar = '!'.repeat(72);

const chromium = findChromium();
if (!chromium) {
  console.error(`\n${bar}\n  E2E TESTS SKIPPED: no Chromium found.\n`);
  console.error(`  Looked at $CHROMIUM_PATH, ${CHROMIUM_CANDIDATES.join(', ')} and Playwright's own browser.`);
  console.error('  Install one with:   sudo apt-get install chromium-headless-shell');
  console.error('  or point at one:    CHROMIUM_PATH=/path/to/chromium npm run test:e2e');
  console.error(`${bar}\n`);
  process.exit(process.env.CI ? 1 : 0);
}
if (!process.env.CHROMIUM_PATH && !chromium.endsWith('headless-shell')) {
  console.log(`Browser tests in ${chromium}; \`sudo apt-get install chromium-headless-shell\` runs them on ~40 % less CPU.`);
}

// The ClickHouse project needs an engine (or a running server); as in the vitest suites, one
// that cannot start fails CI or an explicit WEFT_TEST_STORES, and is otherwise left out loudly.
const env = { ...process.env, CHROMIUM_PATH: chromium };
const stores = selectedTestStores(process.env);
if (stores.names.includes('clickhouse') && !process.env.WEFT_TEST_CLICKHOUSE_URL && !(ensureLibChdb() && launcherCommand())) {
  console.error(
    `\n${bar}\n  CLICKHOUSE E2E TESTS ${process.env.CI || stores.explicit ? 'CANNOT RUN' : 'LEFT OUT'}: no ClickHouse engine.\n  ${ENGINE_HELP}\n${bar}\n`,
  );
  if (process.env.CI || stores.explicit) process.exit(1);
  env.WEFT_TEST_STORES = stores.names.filter((name) => name !== 'clickhouse').join(',');
}

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const result = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
