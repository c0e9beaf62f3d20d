/**
 * Structured logs end to end: a real `weft serve` process with WEFT_LOG_FORMAT=json and request
 * threads on (the default), its stderr read line by line. Every line must be JSON; every request
 * gets one access line carrying its request id, which is the client's X-Request-Id when valid and
 * is also on the error logged by the request thread that failed; no credential ever appears.
 */
import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnWeftServe, weftEnv } from '../testing/serveProcess.js';

const PASSWORD = 'pw-Zq81-never-logged';
const WRONG_PASSWORD = 'pw-Wr0ng-never-logged';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dataDir: string;
let child: ChildProcess;
let url: string;
/** Everything the server printed on stderr and stdout, in order. */
let output = '';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const admin = basic('admin', PASSWORD);

interface Line {
  level: string;
  msg: string;
  request_id?: string;
  [field: string]: unknown;
}

/** Every complete line on stderr, parsed (a line that is not JSON fails the parse, and the test). */
function lines(): Line[] {
  const complete = output.slice(0, output.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

/** The access line of request `id`, once written (it is written when the response has been sent). */
async function accessLine(id: string): Promise<Line> {
  await expect.poll(() => lines().filter((l) => l.msg === 'request' && l.request_id === id).length, { timeout: 10_000 }).toBe(1);
  return lines().find((l) => l.msg === 'request' && l.request_id === id)!;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-logs-'));
  const env = weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: PASSWORD, WEFT_LOG_FORMAT: 'json', WEFT_LOG_LEVEL: 'info' });
  ({ child, url } = await spawnWeftServe(env));
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
}, 90_000);

afterAll(async () => {
  if (child?.exitCode === null) await new Promise((r) => (child.once('exit', r), child.kill('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('structured logs', () => {
  it('writes one JSON access line per request, with the route template and no raw path', async () => {
    const res = await fetch(`${url}/annotation_queues/q-1234567?project_id=admin/p`, { headers: { authorization: admin } });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    const body = await res.text();
    const line = await accessLine(id);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/annotation_queues/:queue_id',
      status: res.status,
      bytes: Buffer.byteLength(body),
      user: 'admin',
      client: '127.0.0.1',
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(JSON.stringify(line)).not.toContain('q-1234567');
    // Every line the server wrote is one JSON object (the start-up banner goes to stdout).
    const stderrLike = output.split('\n').filter((l) => l.trim() !== '' && !/^(Weft is running|Log in as|API docs|\s)/.test(l));
    for (const l of stderrLike) expect(() => JSON.parse(l) as unknown, l).not.toThrow();
  });

  it('takes a valid X-Request-Id from the client, and replaces an invalid one', async () => {
    const given = 'client-id_42.abc:7';
    const ok = await fetch(`${url}/health`, { headers: { 'x-request-id': given } });
    expect(ok.headers.get('x-request-id')).toBe(given);
    expect(await accessLine(given)).toMatchObject({ route: '/health', status: 200 });

    for (const bad of ['two words', 'x'.repeat(129), 'a\u00e9b', '']) {
      const res = await fetch(`${url}/health`, { headers: { 'x-request-id': bad } });
      const replaced = res.headers.get('x-request-id')!;
      expect(replaced).toMatch(UUID);
      await accessLine(replaced);
      if (bad) expect(output).not.toContain(bad);
    }
  });

  it('logs the failure of a request in a request thread with the request id the client gave', async () => {
    // Break the table a feedback query reads, under the running server: its read thread fails
    // with an engine error no request can cause, i.e. a 500. (Read endpoints run in read threads.)
    const db = new Database(join(dataDir, 'weft.sqlite'));
    db.exec('ALTER TABLE feedback RENAME TO feedback_gone');
    db.close();
    const id = 'failing-request-1';
    const res = await fetch(`${url}/feedback/query`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ project_id: 'admin/p' }),
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(await accessLine(id)).toMatchObject({ route: '/feedback/query', status: 500, user: 'admin' });
    const error = lines().find((l) => l.level === 'error' && l.request_id === id);
    expect(error?.msg).toBe('POST /feedback/query 500');
    expect((error?.err as { message: string }).message).toContain('no such table: feedback');
  });

  it('never writes a password, an API key or a session cookie', async () => {
    const created = await fetch(`${url}/weft/api_keys`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'logs-test' }),
    });
    expect(created.status).toBe(200);
    const { key } = (await created.json()) as { key: string };
    const login = await fetch(`${url}/weft/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const token = cookie.slice(cookie.indexOf('=') + 1);
    const ids: string[] = [];
    const send = async (headers: Record<string, string>, path = '/weft/api_keys') => {
      const res = await fetch(`${url}${path}`, { headers });
      await res.arrayBuffer();
      ids.push(res.headers.get('x-request-id')!);
      return res.status;
    };
    expect(await send({ authorization: `Bearer ${key}` })).toBe(200);
    expect(await send({ authorization: basic('api', key) })).toBe(200);
    expect(await send({ 'wandb-api-key': key })).toBe(200);
    expect(await send({ cookie })).toBe(200);
    expect(await send({ authorization: basic('admin', WRONG_PASSWORD) })).toBe(401);
    // A failed sign-in with the password in the body.
    const refused = await fetch(`${url}/weft/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ username: 'admin', password: WRONG_PASSWORD }),
    });
    expect(refused.status).toBe(401);
    ids.push(refused.headers.get('x-request-id')!);
    for (const id of ids) await accessLine(id);
    expect((await accessLine(ids[0]!)).user).toBe('admin');
    expect((await accessLine(ids[3]!)).user).toBe('admin');
    for (const secret of [PASSWORD, WRONG_PASSWORD, key, token, admin.slice(6), basic('api', key).slice(6)]) {
      expect(output).not.toContain(secret);
    }
  });
});
