/**
 * Alerts: opened by direct link, a rule is created in the editor, "Send test" delivers to a
 * webhook receiver run by this spec, and the page shows the masked URL, never the whole one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures/test.js';

let receiver: Server;
let receiverUrl = '';
const got: { path: string; body: unknown }[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', body: JSON.parse(text) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

test('create an alert rule and send a test to a local receiver', async ({ signedInPage: page, project }) => {
  const token = 'e2e-secret-hook-token-1234';
  await page.goto(`/${project}/alerts`);
  await expect(page.getByRole('heading', { name: 'Alerts' })).toBeVisible();
  await expect(page.getByText('No alert rules yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New alert rule' }).click();
  const form = page.getByRole('form', { name: 'New alert rule' });
  await form.getByLabel('Name').fill('Too many errors');
  await form.getByLabel('Threshold').fill('0.25');
  await form.getByLabel('Payload').selectOption('slack');
  await form.getByLabel('Webhook URL').fill(`${receiverUrl}/hooks/${token}`);
  await form.getByRole('button', { name: 'Save rule' }).click();

  const rules = page.getByRole('table', { name: 'Alert rule list' });
  const row = rules.getByRole('row').filter({ hasText: 'Too many errors' });
  await expect(row).toContainText('Error rate (0–1) above 0.25 over 15 min');
  await expect(row).toContainText('OK');
  await expect(row).toContainText(`${receiverUrl}/… (slack)`);
  expect(await page.content()).not.toContain(token);

  await row.getByRole('button', { name: 'Send test for Too many errors' }).click();
  await expect(row).toContainText('Test delivered (HTTP 200)');
  expect(got).toHaveLength(1);
  expect(got[0]!.path).toBe(`/hooks/${token}`);
  expect(got[0]!.body).toEqual({ text: expect.stringMatching(/^\[TEST\] Too many errors/) });

  await row.getByRole('button', { name: 'Snooze 1 h' }).click();
  await expect(row).toContainText('snoozed until');
});
