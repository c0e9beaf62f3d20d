/**
 * The dataset page (docs/datasets.md "Dataset page"): a dataset published in the npm SDK's
 * shape is listed with its rows; a cell edited and a row deleted in place save as a new
 * version, whose row diff against the first shows the changed cell and the removed row, and
 * the new version exports as CSV and opens the evaluation launcher with itself chosen.
 */
import { readFile } from 'node:fs/promises';
import { saveDatasetRows } from '../src/client/datasetVersions.js';
import { expect, test } from './fixtures/test.js';

test('a dataset: edit in place, a new version, its diff and its export', async ({ signedInPage: page, api, project }) => {
  test.setTimeout(60_000);
  const rows = [
    { q: '2+2?', a: '4' },
    { q: 'Capital of France?', a: 'Lyon' },
    { q: 'Largest planet?', a: 'Jupiter' },
  ];
  await saveDatasetRows(api, { projectId: project, objectId: 'qa', baseVal: null, rows });

  await page.goto(`/${project}/datasets`);
  const listed = page.getByRole('row', { name: /qa/ });
  await expect(listed.getByRole('cell').nth(2)).toHaveText('3');
  await listed.getByRole('link', { name: 'qa' }).click();

  await page.getByRole('button', { name: 'Edit a of row 1' }).click();
  const input = page.getByLabel('Value of a in row 1');
  await input.fill('Paris');
  await input.press('Enter');
  await page.getByRole('button', { name: 'Delete row 2' }).click();
  await expect(page.getByRole('toolbar', { name: 'Row edits' })).toContainText('2 unsaved changes');
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByLabel('Version').locator('option:checked')).toHaveText('v1 (latest)');
  await expect(page.getByRole('button', { name: 'Edit a of row 1' })).toHaveText('Paris');

  const { obj } = await api.objRead({ project_id: project, object_id: 'qa', digest: 'latest' });
  expect(obj.version_index).toBe(1);

  await page.getByRole('tab', { name: 'Versions' }).click();
  await expect(page.getByLabel('Diff summary')).toHaveText('v0 → v1: 0 rows added, 1 row removed, 1 row changed, 1 unchanged');
  const changed = page.getByRole('table', { name: 'Changed rows' });
  await expect(changed.getByLabel('a changed')).toHaveText('Lyon Paris');
  await expect(changed.getByRole('row', { name: /removed/ })).toContainText('Largest planet?');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('qa-v1.csv');
  expect(await readFile((await download.path())!, 'utf8')).toBe('q,a\r\n2+2?,4\r\nCapital of France?,Paris\r\n');

  await page.getByRole('link', { name: 'Run evaluation on this version' }).click();
  await expect(page.getByLabel('Dataset version')).toContainText(`On dataset qa version ${obj.digest.slice(0, 8)}`);
});
