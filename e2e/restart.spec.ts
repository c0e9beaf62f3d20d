/**
 * The server stopped and started again halfway through each of the three jobs (triaging threads,
 * reviewing a queue, comparing evaluation runs): the page open in the browser says what failed,
 * never goes blank, and carries on once the server is back, on the same session. The spec runs
 * its own server on a data directory and port it keeps across the restart.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type WeftClient } from '../src/client/index.js';
import { E2E_ADMIN } from './fixtures/credentials.js';
import { publish, seedRun } from './fixtures/seedEvaluations.js';
import { expect, test } from './fixtures/test.js';
import { openSection, showsFixed } from './fixtures/screens.js';
import { startWeft, type WeftProcess } from './fixtures/weftServer.js';

const PROJECT = 'e2e/restart';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Two one-turn threads, ended: their ids and their turns' call ids. */
async function seedThreads(api: WeftClient): Promise<{ threads: string[]; calls: string[] }> {
  const now = Date.now();
  const ids = ['first', 'second'].map((n) => `${n}-${randomUUID().slice(0, 6)}`);
  const calls = ids.map(() => randomUUID());
  await api.callUpsertBatch({
    batch: ids.flatMap((threadId, i) => {
      const id = calls[i]!;
      const at = (ms: number) => new Date(now - 60_000 + i * 10_000 + ms).toISOString();
      const common = { project_id: PROJECT, id, trace_id: randomUUID(), thread_id: threadId, turn_id: id };
      return [
        {
          mode: 'start' as const,
          req: { start: { ...common, op_name: 'chat', started_at: at(0), attributes: {}, inputs: { question: `Question ${i + 1}` } } },
        },
        { mode: 'end' as const, req: { end: { project_id: PROJECT, id, ended_at: at(500), output: `Answer ${i + 1}`, summary: {} } } },
      ];
    }),
  });
  return { threads: ids, calls };
}

test('each job carries on after the server restarts halfway', async ({ page }) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-restart-'));
  const env = { PORT: String(await freePort()) };
  let server: WeftProcess = await startWeft({ dataDir, env });
  const restart = async () => {
    await server.stop();
    return async () => {
      server = await startWeft({ dataDir, env });
    };
  };
  try {
    const url = server.url;
    const api = createClient({ baseUrl: url, auth: E2E_ADMIN });
    const { threads, calls } = await seedThreads(api);
    const f = await publish(api, PROJECT);
    const runs = [
      await seedRun(api, f, 'model-a', [['Paris'], ['Rome'], ['Madrid']]),
      await seedRun(api, f, 'model-b', [['Lyon'], ['Rome'], ['Madrid']]),
    ];
    expect((await page.request.post(`${url}/weft/session`, { data: E2E_ADMIN })).ok()).toBe(true);
    const heading = (name: string) => page.getByRole('heading', { name, level: 1 });

    // Triage: the threads list, the server gone, a sort asked for; back, Retry shows the list.
    await page.goto(`${url}/${PROJECT}/threads`);
    const table = page.getByRole('table', { name: 'Threads' });
    await expect(table.getByRole('row')).toHaveCount(3);
    let resume = await restart();
    await page.getByRole('columnheader', { name: /Turns/ }).click();
    await expect(page.getByRole('alert')).toContainText('Cannot reach the Weft server');
    await expect(heading('Threads')).toBeVisible();
    await showsFixed(page, '1-restart-threads');
    await resume();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table).toContainText(threads[0]!);

    // Review: one answer saved, the server gone for the second; back, the second is saved.
    const spec = await api.objCreate({
      obj: {
        project_id: PROJECT,
        object_id: 'verdict',
        val: {
          _type: 'AnnotationSpec',
          _class_name: 'AnnotationSpec',
          _bases: ['Object', 'BaseModel'],
          name: 'verdict',
          field_schema: { type: 'string', enum: ['good', 'bad'] },
        },
      },
    });
    const { id: queueId } = await api.annotationQueueCreate({
      project_id: PROJECT,
      name: 'Restart review',
      scorer_refs: [`weave:///${PROJECT}/object/verdict:${spec.digest}`],
    });
    await api.annotationQueueAddCalls({ project_id: PROJECT, queue_id: queueId, call_ids: calls, display_fields: [] });
    await page.goto(`${url}/${PROJECT}/annotation/${queueId}/review`);
    await expect(page.getByText('1 of 2')).toBeVisible();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByText('2 of 2')).toBeVisible();
    resume = await restart();
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect(page.getByText('2 of 2')).toBeVisible();
    await resume();
    await page.keyboard.press('Enter');
    await expect(page.getByText('All done')).toBeVisible();

    // Compare: the comparison open, the server gone, another view of it asked for; back, Retry.
    await page.goto(`${url}/${PROJECT}/evaluations/compare?runs=${runs[0]},${runs[1]}`);
    await expect(page.getByRole('figure', { name: 'correct by run' })).toBeVisible();
    resume = await restart();
    await openSection(page, 'Evaluations');
    await expect(page.getByRole('alert')).toContainText('Cannot reach the Weft server');
    // The app around the error stays: its navigation (a menu on a narrow screen), not a blank page.
    const narrow = page.viewportSize()!.width < 900;
    await expect(
      narrow ? page.getByRole('button', { name: 'Menu' }) : page.getByRole('navigation', { name: 'Project sections' }),
    ).toBeVisible();
    await showsFixed(page, '1-restart-compare');
    await resume();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
