/** Export: filtered calls as JSON lines (streamed to a save dialog) and selected calls as CSV (a download). */
import { readFile } from 'node:fs/promises';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('export the filtered calls as JSONL through the save dialog', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 10 });
  // Stand in for Chromium's save dialog: the writable collects what the app pipes into it.
  await page.addInitScript(() => {
    const w = window as unknown as { showSaveFilePicker: unknown; savedExport: string; savedName: string };
    w.savedExport = '';
    w.showSaveFilePicker = async (options: { suggestedName: string }) => {
      w.savedName = options.suggestedName;
      const decoder = new TextDecoder();
      return {
        createWritable: async () =>
          new WritableStream<Uint8Array>({ write: (chunk) => void (w.savedExport += decoder.decode(chunk, { stream: true })) }),
      };
    };
  });
  await page.goto(`/${project}/calls?f=${encodeURIComponent(JSON.stringify([['summary.weave.status', 'eq', 'error']]))}`);
  await expect(page.getByText('2 traces')).toBeVisible();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByLabel('Matching the filters (2)')).toBeChecked();
  await page.getByRole('button', { name: 'Export JSONL' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const saved = await page.evaluate(() => (window as unknown as { savedExport: string }).savedExport);
  const lines = saved
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { op_name: string; exception: string | null; inputs: unknown });
  expect(lines).toHaveLength(2);
  for (const call of lines) {
    expect(call.op_name).toContain('research_agent');
    expect(call.exception).toContain('TimeoutError');
  }
  expect(await page.evaluate(() => (window as unknown as { savedName: string }).savedName)).toMatch(/\.jsonl$/);
});

test('export selected calls as CSV as a download', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 6 });
  // Without the File System Access API the export becomes an ordinary download.
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await expect(table.getByRole('row')).toHaveCount(7);
  await table.getByRole('row').nth(1).getByRole('checkbox').check();
  await table.getByRole('row').nth(2).getByRole('checkbox').check();

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByLabel('Selected (2)').check();
  await page.getByLabel('CSV (.csv)').check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const rows = (await readFile(file, 'utf8')).trim().split(/\r?\n/);
  expect(rows).toHaveLength(3); // header + 2 calls
  expect(rows[0]).toContain('op_name');
});
