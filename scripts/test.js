#!/usr/bin/env node
// `npm test`: the server and unit tests (vitest, real HTTP on real SQLite files and a ClickHouse
// engine) and the browser end-to-end tests on both stores (scripts/e2e.js, which says loudly
// when no Chromium or engine is found), side by side: the browser tests mostly wait on a page or
// a server, so they use the cores vitest leaves idle (docs/performance.md "Test time"). Their
// output is held back until vitest's is done. Ends with one plain line, "weft: N passed, N
// failed", that CI reads: Playwright's totals cover both stores' projects.
// WEFT_TEST_SERIAL=1 runs them one after the other, as before. The tests' files go on a RAM
// disk when the machine has one (ramTmpDir).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TMPFS_MAGIC = 0x01021994;
const RAM_DISK = '/dev/shm';

/**
 * A directory on a RAM disk for the tests' temporary files (SQLite databases, the ClickHouse
 * engine's parts, browser profiles), or null when TMPDIR is set or there is no tmpfs with 4 GB
 * free. Creating parts and syncing WAL files there costs up to a quarter less CPU than on a disk
 * (docs/performance.md "Test time"); a crash test kills processes, not the machine, so it
 * tests the same.
 */
function ramTmpDir() {
  if (process.env.TMPDIR) return null;
  try {
    accessSync(RAM_DISK, constants.W_OK);
    const fs = statfsSync(RAM_DISK);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < 4 * 2 ** 30) return null;
    return mkdtempSync(join(RAM_DISK, 'weft-test-'));
  } catch {
    return null;
  }
}

const ramTmp = ramTmpDir();
if (ramTmp) process.env.TMPDIR = ramTmp;
const dir = mkdtempSync(join(tmpdir(), 'weft-test-report-'));
const report = join(dir, 'vitest.json');
let passed = 0;
let failed = 0;
/** The failed and flaky vitest tests, repeated after the browser tests' output so a log's tail names them. */
const unitFailures = [];
const unitFlaky = [];

const firstLine = (text) => (text ?? '').trim().split('\n')[0].slice(0, 300);

/** Resolves with the exit status (null when killed by a signal). */
const exited = (child) => new Promise((resolve) => child.once('close', (code) => resolve(code)));

function runVitest() {
  const child = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { stdio: 'inherit' },
  );
  return exited(child);
}

/**
 * The browser tests; their output (stdout and stderr, in order) is kept until `release()`, then
 * written and followed live. Answers the status and all of stdout, for the totals.
 */
function runE2e() {
  const child = spawn(process.execPath, ['scripts/e2e.js'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let held = [];
  const write = (stream, chunk) => (held ? held.push([stream, chunk]) : stream.write(chunk));
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    write(process.stdout, chunk);
  });
  child.stderr.on('data', (chunk) => write(process.stderr, chunk));
  const release = () => {
    for (const [stream, chunk] of held) stream.write(chunk);
    held = null;
  };
  return { release, done: exited(child).then((status) => ({ status, stdout })) };
}

const serial = process.env.WEFT_TEST_SERIAL === '1';
let e2e = serial ? null : runE2e();
const unitStatus = await runVitest();
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numTotalTestSuites > 0 && r.success === false && r.numFailedTests === 0 ? 1 : 0);
  for (const file of r.testResults) {
    const name = file.name.replace(`${process.cwd()}/`, '');
    const tests = file.assertionResults.filter((t) => t.status === 'failed');
    for (const t of tests) unitFailures.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
    // A test that passed on CI's retry keeps the first attempt's error.
    for (const t of file.assertionResults.filter((t) => t.status === 'passed' && t.failureMessages.length > 0))
      unitFlaky.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
    if (file.status === 'failed' && tests.length === 0) unitFailures.push(`${name}: ${firstLine(file.message)}`);
  }
} catch {
  failed += 1; // vitest crashed before writing its report
}
rmSync(dir, { recursive: true, force: true });

e2e ??= runE2e();
e2e.release();
const { status: e2eStatus, stdout } = await e2e.done;
const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(stdout)?.[1] ?? 0);
passed += count('passed');
failed += count('failed');
if (e2eStatus !== 0 && count('failed') === 0) failed += 1;

const ok = unitStatus === 0 && e2eStatus === 0 && failed === 0;
if (ramTmp) rmSync(ramTmp, { recursive: true, force: true });
const list = (title, lines) => lines.length > 0 && console.log(`\n${title}:\n${lines.map((l) => `  ${l}`).join('\n')}`);
list('Flaky in vitest (failed, then passed on the retry)', unitFlaky);
list('Failed in vitest', unitFailures);
console.log(`\nweft: ${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
