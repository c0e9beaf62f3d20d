/**
 * `npm run clickhouse` as a developer runs it: it prints the URL and the `npm start` line,
 * the engine answers, Ctrl-C (SIGINT) stops it, and what was written is there after a restart.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/clickhouseEngine.js';
import { ROOT } from '../../testing/serveProcess.js';
import { testBackends } from '../../testing/tempStore.js';

/** Starts the script and resolves with what it printed once it says how to start Weft. */
function startDevEngine(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['scripts/clickhouse-server.js', '--data-dir', dataDir, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('npm start')) resolve(out);
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`npm run clickhouse exited (${code}):\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

const query = async (url: string, sql: string) => (await fetch(`${url}/?query=${encodeURIComponent(sql)}`, { method: 'POST' })).text();

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  for (const _ of testBackends().filter((b) => b.name === 'clickhouse')) {
    describe('npm run clickhouse', () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'weft-dev-engine-'));
      afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

      it('prints the URL and the start line, stops on Ctrl-C, and keeps its data across restarts', async () => {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const first = startDevEngine(dataDir, port);
        const printed = await first.ready;
        expect(printed).toContain(`listening on ${url}`);
        expect(printed).toContain(`WEFT_STORE=clickhouse WEFT_CLICKHOUSE_URL=${url} npm start`);
        await query(url, 'CREATE TABLE kept (n UInt32) ENGINE = MergeTree ORDER BY n');
        await query(url, 'INSERT INTO kept VALUES (42)');
        first.child.kill('SIGINT');
        expect(await first.exited).toBe(0);

        const second = startDevEngine(dataDir, port);
        await second.ready;
        expect((await query(url, 'SELECT sum(n) FROM kept')).trim()).toBe('42');
        second.child.kill('SIGINT');
        expect(await second.exited).toBe(0);
      });
    });
  }
});
