/**
 * The npm `weave` SDK against a real `weft serve --tls`, configured the way the README says:
 * only WANDB_BASE_URL (https), WANDB_API_KEY and NODE_EXTRA_CA_CERTS for the generated
 * certificate. `weave.init('project')` asks https://<host>/graphql for the default entity (the
 * SDK drops the URL's scheme, dist/urls.js) and then traces to https://<host>/traces; the trace
 * is read back independently. Each SDK run is a child process, because Node reads
 * NODE_EXTRA_CA_CERTS only when it starts.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnWeftServe, weftEnv } from './testing/serveProcess.js';
import { sendExactly } from './testing/wandbClients.js';

const PROGRAM = fileURLToPath(new URL('./testing/weaveSdkProgram.mjs', import.meta.url));
const ADMIN = `Basic ${Buffer.from('admin:https-admin').toString('base64')}`;
const DANA = `Basic ${Buffer.from('dana:dana-password').toString('base64')}`;

let dataDir: string;
let home: string;
let server: { child: ChildProcess; url: string };
let certFile: string;
let ca: string;
let apiKey: string;

const call = (path: string, body: unknown, authorization = DANA) =>
  sendExactly(`${server.url}${path}`, {
    headers: [
      ['Authorization', authorization],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify(body),
    ca,
  });

/** Runs the SDK program for `project` with only the given environment (plus PATH and an empty HOME: no ~/.netrc, no wandb settings). */
function runSdk(project: string, env: Record<string, string>): Promise<{ last: string; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PROGRAM, project],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, timeout: 60_000 },
      (_err, stdout, stderr) => {
        const lines = stdout.trim().split('\n');
        resolve({ last: lines[lines.length - 1] ?? '', output: `${stdout}\n${stderr}` });
      },
    );
  });
}

const result = (last: string) => {
  expect(last).toMatch(/^RESULT /);
  return JSON.parse(last.slice('RESULT '.length)) as { projectId: string; output: string };
};

async function callsOf(projectId: string): Promise<{ op_name: string; output: unknown }[]> {
  const res = await call('/traces/calls/stream_query', { project_id: projectId });
  expect(res.status).toBe(200);
  return res.text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-https-'));
  home = mkdtempSync(join(tmpdir(), 'weft-https-home-'));
  server = await spawnWeftServe(weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'https-admin' }), ['--tls']);
  certFile = join(dataDir, 'tls', 'weft-cert.pem');
  ca = readFileSync(certFile, 'utf8');
  const user = await call('/weft/users', { username: 'dana', password: 'dana-password', entities: ['dana-team'] }, ADMIN);
  expect(user.status).toBe(200);
  apiKey = (await call('/weft/api_keys', { name: 'sdk' })).json.key;
}, 90_000);

afterAll(async () => {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('npm weave over https with WANDB_BASE_URL alone', { timeout: 90_000 }, () => {
  it('serves https with the generated certificate', () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("weave.init('project') without an entity traces into the user's default entity", async () => {
    const env = { WANDB_BASE_URL: server.url, WANDB_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: certFile };
    const run = await runSdk('bare-project', env);
    expect(result(run.last)).toEqual({ projectId: 'dana-team/bare-project', output: 'Hello, Ada!' });
    const calls = await callsOf('dana-team/bare-project');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.op_name).toMatch(/^weave:\/\/\/dana-team\/bare-project\/op\/greet:/);
    expect(calls[0]!.output).toBe('Hello, Ada!');
  });

  it("weave.init('entity/project') still works", async () => {
    const run = await runSdk('dana-team/explicit', { WANDB_BASE_URL: server.url, WANDB_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: certFile });
    expect(result(run.last).projectId).toBe('dana-team/explicit');
    expect((await callsOf('dana-team/explicit')).map((c) => c.output)).toEqual(['Hello, Ada!']);
  });

  it('a wrong key ends weave.init with the SDK\'s own "HTTP error! status: 401"', async () => {
    const run = await runSdk('bare-project', { WANDB_BASE_URL: server.url, WANDB_API_KEY: 'x'.repeat(40), NODE_EXTRA_CA_CERTS: certFile });
    expect(run.last).toMatch(/^FAILED /);
    expect(run.last).toContain('HTTP error! status: 401');
  });

  it('without NODE_EXTRA_CA_CERTS Node refuses the self-signed certificate', async () => {
    const run = await runSdk('bare-project', { WANDB_BASE_URL: server.url, WANDB_API_KEY: apiKey });
    expect(run.last).toMatch(/^FAILED /);
    expect(run.output).toMatch(/SELF_SIGNED|self[- ]signed/i);
  });
});
