#!/usr/bin/env node
// `npm run test:e2e`: the dashboard's browser tests (Playwright, e2e/*.spec.ts) against a real
// Weft server on a temporary SQLite file, in a real Chromium. Never downloads a browser: it uses
// CHROMIUM_PATH, Debian's /usr/bin/chromium, or a Chromium Playwright installed earlier.
// Without one it says so loudly and skips; with CI set, skipping is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    const { chromium } = createRequire(import.meta.url)('playwright-core');
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core not resolvable: only the system paths count
  }
  return candidates.find((p) => p && existsSync(p)) ?? null;
}

const chromium = findChromium();
if (!chromium) {
  const bar = '!'.repeat(72);
  console.error(`\n${bar}\n  E2E TESTS SKIPPED: no Chromium found.\n`);
  console.error("  Looked at $CHROMIUM_PATH, /usr/bin/chromium and Playwright's own browser.");
  console.error('  Install one with:   sudo apt-get install chromium');
  console.error('  or point at one:    CHROMIUM_PATH=/path/to/chromium npm run test:e2e');
  console.error(`${bar}\n`);
  process.exit(process.env.CI ? 1 : 0);
}

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const result = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
