/**
 * Jobs survive a restart: a real `weft serve` process is killed with SIGKILL in the middle of
 * an evaluate_model job; the next start resumes the job (its heartbeat went stale), keeps the
 * rows already finished, drops the half-done ones and completes the evaluation. Nothing is
 * lost silently: the job ends succeeded with a second attempt recorded.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type WeftClient } from '../../client/index.js';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { publishLlmEvaluation } from '../testing/llmFixture.js';
import { BIN, ROOT, spawnWeftServe, weftEnv } from '../testing/serveProcess.js';
import { collect } from '../testing/serverSuite.js';

const PROJECT = 'dana-co/restart';
const ROWS = Array.from({ length: 8 }, (_, i) => ({ question: `question number ${i}` }));

let dataDir: string;
let fake: FakeOpenAi;
let apiKey: string;
const running = new Set<ChildProcess>();

const env = () =>
  weftEnv({
    WEFT_DATA_DIR: dataDir,
    WEFT_ADMIN_PASSWORD: 'restart-admin',
    OPENAI_BASE_URL: fake.baseUrl,
    WEFT_OUTBOUND_ALLOW: '127.0.0.1',
    WEFT_JOB_STALE_MS: '1000',
    WEFT_JOB_CONCURRENCY: '1',
  });

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env: env() });
  return stdout;
}

async function serve(): Promise<{ child: ChildProcess; client: WeftClient; url: string }> {
  const { child, url } = await spawnWeftServe(env());
  running.add(child);
  child.once('exit', () => running.delete(child));
  return { child, url, client: createClient({ baseUrl: url, auth: { username: 'api', password: apiKey } }) };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'weft-restart-'));
  fake = await startFakeOpenAi();
  await cli('user', 'add', 'dana', '--entity', 'dana-co', '--password', 'dana-pw');
  apiKey = (await cli('key', 'create', '--user', 'dana')).trim();
}, 60_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await probe();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

it('an evaluate_model job killed mid-run is resumed by the next start and completes', async () => {
  const first = await serve();
  // Every prediction takes 300 ms upstream: the kill lands while rows remain.
  const f = await publishLlmEvaluation(first.client, PROJECT, { model: 'slow-300', judgeModel: 'gpt-4o-mini', rows: ROWS });
  const { call_id } = await first.client.evaluateModel({ project_id: PROJECT, evaluation_ref: f.evaluationRef, model_ref: f.modelRef });
  await until(
    async () => (await first.client.evaluationStatus({ project_id: PROJECT, call_id })).status,
    (s) => s.code === 'running' && s.completed_rows >= 2,
    'two finished rows',
  );
  const exited = once(first.child, 'exit');
  first.child.kill('SIGKILL');
  await exited;

  const second = await serve();
  const status = await until(
    async () => (await second.client.evaluationStatus({ project_id: PROJECT, call_id })).status,
    (s) => s.code === 'complete' || s.code === 'failed',
    'the resumed evaluation to end',
  );
  expect(status.code).toBe('complete');
  const rows = (await collect(second.client.callsStreamQuery({ project_id: PROJECT, filter: { parent_ids: [call_id] } }))).filter((c) =>
    c.op_name.includes('/op/Evaluation.predict_and_score:'),
  );
  // Exactly one finished row per dataset row: half-done rows of the killed run were dropped.
  expect(rows).toHaveLength(ROWS.length);
  expect(rows.every((r) => r.ended_at)).toBe(true);
  expect(new Set(rows.map((r) => r.inputs.example)).size).toBe(ROWS.length);
  const { jobs } = await second.client.jobsList({ project_id: PROJECT });
  expect(jobs[0]).toMatchObject({ kind: 'evaluate_model', status: 'succeeded', attempts: 2, progress_done: ROWS.length });
  second.child.kill('SIGKILL');
}, 90_000);
