/**
 * Annotation queues end to end: create a queue with a category and a yes/no question in the
 * dashboard, add three calls to it from the Calls table by selection, answer all three from the
 * keyboard alone, see the queue at 100 %, and find the answers as feedback on the calls.
 */
import { randomUUID } from 'node:crypto';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';
import { openSection, SCREENS, showsFixed } from './fixtures/screens.js';

test(
  'create a queue, add calls by selection, annotate them with the keyboard',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    const traces = await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
    const queueName = `Answers ${randomUUID().slice(0, 6)}`;

    // A queue with two questions, written inline.
    await page.goto(`/${project}/annotation`);
    await page.getByRole('button', { name: 'New queue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New annotation queue' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).first().fill(queueName);
    const question = dialog.getByRole('group', { name: 'New question' });
    await question.getByLabel('Name').fill('verdict');
    await question.getByLabel('Kind').selectOption('category');
    await question.getByLabel(/Options/).fill('good, okay, bad');
    await question.getByRole('button', { name: 'Add question' }).click();
    await dialog.getByRole('button', { name: 'New question…' }).click();
    await question.getByLabel('Name').fill('correct');
    await question.getByLabel('Kind').selectOption('boolean');
    await question.getByRole('button', { name: 'Add question' }).click();
    await expect(dialog.getByRole('listitem')).toContainText(['verdict', 'correct']);
    await dialog.getByRole('button', { name: 'Create queue' }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(queueName) });
    await expect(row).toContainText('verdict, correct');
    // The fields reviewers see live on the queue itself, not in an object of their own.
    const created = [];
    for await (const q of api.annotationQueuesQuery({ project_id: project, name: queueName })) created.push(q);
    expect(created.map((q) => q.display_fields)).toEqual([['inputs', 'output']]);
    const { objs } = await api.objsQuery({ project_id: project, filter: { latest_only: true } });
    expect(objs.map((o) => o.object_id).sort()).toEqual(['correct', 'verdict']);
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');

    // Three calls, selected in the Calls table.
    await openSection(page, 'Calls');
    await expect(page.getByText('3 traces')).toBeVisible();
    const boxes = page.getByRole('table', { name: 'Calls' }).getByRole('checkbox', { name: /^Select / });
    await expect(boxes).toHaveCount(3);
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await expect(page.getByRole('radio', { name: 'Selected (3)' })).toBeChecked();
    await page.getByRole('button', { name: 'Add 3 calls' }).click();
    await expect(page.getByText(`Added 3 to ${queueName}`)).toBeVisible();
    await page.getByRole('link', { name: /Start reviewing/ }).click();
    // Key caps name letters, in the UI font: in the monospace one the O of "Open trace" read as a zero.
    const cap = page.getByRole('link', { name: /Open trace/ }).locator('kbd');
    expect(await cap.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^system-ui/);
    await showsFixed(page, '11-key-caps');

    // Keyboard only: a digit picks the category, Tab moves to the yes/no question, a digit
    // answers it (1 = yes, 2 = no), Enter submits and opens the next call.
    const answers = [
      { key: '1', verdict: 'good', yes: '1' },
      { key: '2', verdict: 'okay', yes: '2' },
      { key: '3', verdict: 'bad', yes: '1' },
    ];
    for (const [i, a] of answers.entries()) {
      await expect(page.getByText(`${i + 1} of 3`)).toBeVisible();
      await expect(page.getByRole('radiogroup', { name: 'verdict' })).toBeVisible();
      await page.keyboard.press(a.key);
      await expect(page.getByRole('radio', { name: a.verdict })).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('Tab');
      await page.keyboard.press(a.yes);
      await expect(page.getByRole('radio', { name: a.yes === '1' ? 'Yes' : 'No' })).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('Enter');
    }
    await expect(page.getByText('All done')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Your progress' })).toHaveAttribute('aria-valuenow', '100');

    // The queue reads 100 %.
    await openSection(page, 'Annotation queues');
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(row).toContainText('3 / 3 · 100 %');

    // Each call carries its two answers as annotation feedback.
    const found: string[] = [];
    for await (const call of api.callsStreamQuery({
      project_id: project,
      filter: { call_ids: traces.map((t) => t.rootId) },
      include_feedback: true,
    })) {
      const feedback =
        (call.summary as { weave?: { feedback?: { feedback_type: string; payload: { value: unknown } }[] } }).weave?.feedback ?? [];
      const value = (type: string) => feedback.find((f) => f.feedback_type === `wandb.annotation.${type}`)?.payload.value;
      found.push(`${String(value('verdict'))}/${String(value('correct'))}`);
    }
    expect(found.sort()).toEqual(['bad/true', 'good/true', 'okay/false']);
  },
);
