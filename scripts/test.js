#!/usr/bin/env node
// `npm test`: the server and unit tests (vitest, real HTTP on real SQLite files and a ClickHouse
// engine), then the browser end-to-end tests on both stores (scripts/e2e.js, which says loudly
// when no Chromium or engine is found). Ends with one plain line, "weft: N passed, N failed",
// that CI reads: Playwright's totals cover both stores' projects.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'weft-test-report-'));
const report = join(dir, 'vitest.json');
let passed = 0;
let failed = 0;

const unit = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  { stdio: 'inherit' },
);
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numTotalTestSuites > 0 && r.success === false && r.numFailedTests === 0 ? 1 : 0);
} catch {
  failed += 1; // vitest crashed before writing its report
}
rmSync(dir, { recursive: true, force: true });

const e2e = spawnSync(process.execPath, ['scripts/e2e.js'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(e2e.stdout ?? '');
const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(e2e.stdout ?? '')?.[1] ?? 0);
passed += count('passed');
failed += count('failed');
if (e2e.status !== 0 && count('failed') === 0) failed += 1;

const ok = unit.status === 0 && e2e.status === 0 && failed === 0;
console.log(`\nweft: ${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
