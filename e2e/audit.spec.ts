/** Settings → Audit log: an admin's action shows up as a row, filtered, and downloads as CSV. */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures/test.js';

test('an admin creates a key, finds its audit row and exports the log as CSV', async ({ signedInPage: page }) => {
  const name = `audit-${randomUUID().slice(0, 8)}`;
  await page.goto('/settings');
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const notice = page.getByRole('status', { name: 'New API key' });
  const keyId = (await notice.getByLabel('API key').innerText()).trim().slice(0, 10);
  await notice.getByRole('button', { name: 'Done' }).click();

  const section = page.locator('#audit-log');
  const filters = section.getByRole('form', { name: 'Audit log filters' });
  await filters.getByLabel('Action').selectOption('key.created');
  await filters.getByRole('button', { name: 'Filter' }).click();
  const row = section.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: keyId });
  await expect(row).toContainText('key.created');
  await expect(row).toContainText('admin');
  await expect(row).toContainText('success');

  const downloading = page.waitForEvent('download');
  await section.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('weft-audit.csv');
  const csv = await readFile((await download.path())!, 'utf8');
  const [header, ...lines] = csv.trim().split('\r\n');
  expect(header).toMatch(/^id,time,actor_username/);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((l) => l.includes('key.created'))).toBe(true);
  expect(lines.some((l) => l.includes(keyId))).toBe(true);
});
