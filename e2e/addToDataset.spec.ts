/**
 * "Add to dataset" end to end (docs/datasets.md "Add to dataset"): select two traces on the
 * Calls page, add them to a new dataset with the default mapping after reading the preview,
 * and find the rows on the dataset's page.
 */
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

test('select calls, add them to a new dataset, see its rows', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  const boxes = page.getByRole('table', { name: 'Calls' }).getByRole('checkbox', { name: /^Select / });
  await expect(boxes).toHaveCount(2);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByRole('button', { name: 'Add to dataset' }).click();

  const dialog = page.getByRole('dialog', { name: 'Add to dataset' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('picked-calls');
  // The default mapping: the input by its name, the output as `expected`.
  await expect(dialog.getByRole('textbox', { name: 'Column 1 name' })).toHaveValue('question');
  await expect(dialog.getByRole('textbox', { name: 'Column 2 name' })).toHaveValue('expected');
  const preview = dialog.getByRole('table', { name: 'Preview rows' });
  await expect(preview.getByRole('row')).toHaveCount(3);
  await expect(preview).toContainText('Is the Rhine longer than the Danube?');
  await expect(dialog.getByText('a new dataset of 2 rows')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add 2 rows' }).click();
  await expect(dialog.getByRole('status')).toContainText('Added 2 rows to picked-calls (version v0)');

  await dialog.getByRole('link', { name: 'picked-calls' }).click();
  const rows = page.getByRole('table', { name: 'rows of v0' });
  await expect(rows).toContainText('Is the Rhine longer than the Danube?');
  await expect(rows).toContainText('What is the boiling point of ethanol?');
});
