/**
 * The links the Weave SDKs print when WANDB_BASE_URL points at Weft land on the right page:
 * a call (`<base>/<entity>/<project>/r/call/<id>`, printed after each traced call) opens its trace
 * with the call selected, and the project link (`.../weave`) opens the project's calls.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures/test.js';

test('an SDK call link opens the trace, the project link the calls', async ({ signedInPage: page, api, project }) => {
  const id = randomUUID();
  const traceId = randomUUID();
  await api.callStart({
    start: {
      project_id: project,
      id,
      trace_id: traceId,
      op_name: 'greet',
      started_at: new Date().toISOString(),
      inputs: { name: 'Ada' },
      attributes: {},
    },
  });

  await page.goto(`/${project}/r/call/${id}`);
  await expect(page).toHaveURL(new RegExp(`/${project}/traces/${traceId}\\?call=${id}`));
  await expect(page.getByRole('complementary', { name: 'Call details' })).toContainText(id);

  await page.goto(`/${project}/weave`);
  await expect(page).toHaveURL(new RegExp(`/${project}/calls`));
});
