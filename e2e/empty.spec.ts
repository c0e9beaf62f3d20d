/** A project without calls explains how to send the first trace, with the real origin and project filled in. */
import { expect, test } from './fixtures/test.js';

test('an empty project shows how to send its first trace', async ({ signedInPage: page, project, baseURL }) => {
  await page.goto(`/${project}/calls`);
  await expect(page.getByRole('heading', { name: `Send the first trace to ${project}` })).toBeVisible();
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText(`WF_TRACE_SERVER_URL=${baseURL}`);
  await expect(panel).toContainText(`weave.init("${project}")`);

  await page.getByRole('tab', { name: 'TypeScript' }).click();
  await expect(panel).toContainText("import * as weave from 'weave'");
  await expect(panel).toContainText(`await weave.init('${project}')`);

  await page.getByRole('tab', { name: 'OpenTelemetry' }).click();
  await expect(panel).toContainText(`${baseURL}/otel/v1/traces`);
  await expect(panel).toContainText(`project_id=${project}`);

  await page.getByRole('tab', { name: 'curl' }).click();
  await expect(panel).toContainText(`${baseURL}/call/upsert_batch`);
});

test('the server being unreachable is said in words, with a retry', async ({ signedInPage: page, project }) => {
  await page.goto(`/${project}/calls`);
  await expect(page.getByRole('heading', { name: /Send the first trace/ })).toBeVisible();
  await page.route('**/calls/query_stats', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"reason":"Internal server error"}' }),
  );
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('The server had a problem');
  await page.unroute('**/calls/query_stats');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: /Send the first trace/ })).toBeVisible();
});
