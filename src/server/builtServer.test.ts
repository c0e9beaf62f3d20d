/**
 * The server as `npm start` runs it: bundled by scripts/build.js, started by bin/weft.js without
 * tsx. The build goes to a temporary install laid out as `npm pack` ships one (bin/, build/server/,
 * dist/, package.json; node_modules linked to this checkout's), with no sources beside it, so a
 * path the bundle resolves against the wrong directory fails here. The dashboard is a stand-in
 * index.html: `npm run build`'s real one is checked by scripts/smoke.js, which
 * also installs without the dev dependencies.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnWeftServe, weftEnv } from './testing/serveProcess.js';
import { buildServer } from '../../scripts/build.js';

const INDEX = '<!doctype html><title>Weft</title><div id="root"></div>';

let install: string;
let server: Awaited<ReturnType<typeof spawnWeftServe>> | undefined;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  install = mkdtempSync(join(tmpdir(), 'weft-built-'));
  await buildServer({ out: install });
  mkdirSync(join(install, 'bin'));
  copyFileSync(join(ROOT, 'bin/weft.js'), join(install, 'bin/weft.js'));
  copyFileSync(join(ROOT, 'package.json'), join(install, 'package.json'));
  mkdirSync(join(install, 'dist'));
  writeFileSync(join(install, 'dist/index.html'), INDEX);
  symlinkSync(join(ROOT, 'node_modules'), join(install, 'node_modules'));
  env = weftEnv({ WEFT_DATA_DIR: join(install, 'data'), WEFT_ADMIN_PASSWORD: 'built-admin', WEFT_NO_DASHBOARD: '' });
  server = await spawnWeftServe(env, [], { bin: join(install, 'bin/weft.js'), cwd: install });
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    const exited = new Promise((resolve) => server!.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  rmSync(install, { recursive: true, force: true });
});

describe('the built server (build/server/, no tsx)', () => {
  it('takes a call as the SDK sends it and returns it from the calls query, through its request threads', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(install, 'bin/weft.js'), 'key', 'create', '--user', 'admin'], {
      cwd: install,
      env,
    });
    const authorization = `Basic ${Buffer.from(`api:${stdout.trim()}`).toString('base64')}`;
    const post = (path: string, body: unknown) =>
      fetch(`${server!.url}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const start = await post('/call/start', {
      start: { project_id: 'admin/built', op_name: 'built.op', started_at: new Date().toISOString(), attributes: {}, inputs: { x: 1 } },
    });
    expect(start.status).toBe(200);
    const { id } = (await start.json()) as { id: string };
    const query = await post('/calls/stream_query', { project_id: 'admin/built' });
    expect(query.status).toBe(200);
    const rows = (await query.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; op_name: string; inputs: unknown });
    expect(rows).toEqual([expect.objectContaining({ id, op_name: 'built.op', inputs: { x: 1 } })]);
  });

  it('serves the dashboard from dist/ beside the build', async () => {
    const page = await fetch(`${server!.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX);
    expect(server!.output()).not.toMatch(/Building|tsx/);
  });
});
