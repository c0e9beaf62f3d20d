/** Feedback on calls: reactions and notes in the detail panel, the Feedback column, filters on feedback, annotation fields. */
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

const REACTION_FIELD = 'feedback.[wandb.reaction.1].payload.emoji';

test('thumbs down and a note show in the calls table, and the table filters on them', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 3, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  await expect(page.getByText('3 traces')).toBeVisible();
  const table = page.getByRole('table', { name: 'Calls' });

  // Open the newest trace; its root call is selected.
  await table.getByRole('link', { name: 'research_agent', exact: true }).first().click();
  await page.waitForURL(/\/traces\//);
  const traceUrl = page.url();
  const details = page.getByRole('complementary', { name: 'Call details' });
  await details.getByRole('button', { name: 'Thumbs down', exact: true }).click();
  const thumbsDown = details.getByRole('button', { name: 'Thumbs down (1)' });
  await expect(thumbsDown).toHaveAttribute('aria-pressed', 'true');
  await expect(thumbsDown).toHaveAttribute('title', /admin/);

  const note = `Cites a source the search tool never returned (${Date.now()})`;
  await details.getByLabel('New note').fill(note);
  await details.getByRole('button', { name: 'Add note' }).click();
  const notes = details.getByRole('list', { name: 'Notes' });
  await expect(notes).toContainText(note);
  await expect(notes).toContainText('admin');
  await expect(details.getByLabel('New note')).toHaveValue('');
  await expect(details.getByRole('list', { name: 'Reactions given' })).toContainText('admin');

  // The calls table shows it in the Feedback column of that trace's row only.
  await page.getByRole('link', { name: '← Calls' }).click();
  await expect(page.getByText('3 traces')).toBeVisible();
  // The Feedback column is hidden by default (to fit 1280 px): shown from the column chooser.
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Feedback', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Feedback', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  const summary = table.getByRole('img', { name: '1 thumbs down, 1 note' });
  await expect(summary).toHaveCount(1);
  await expect(table.getByRole('columnheader', { name: 'Feedback' })).toBeVisible();

  // Filter: Reaction equals 👎.
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByLabel('Field').fill(REACTION_FIELD);
  await filter.getByLabel('Operator').selectOption('eq');
  await filter.getByLabel('Value').selectOption('👎');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('1 traces')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Reaction equals 👎');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(summary).toHaveCount(1);
  await table.getByRole('link', { name: 'research_agent', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === new URL(traceUrl).pathname);

  // Taking the reaction back empties the filtered list.
  await details.getByRole('button', { name: 'Thumbs down (1)' }).click();
  await expect(details.getByRole('button', { name: 'Thumbs down', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('link', { name: '← Calls' }).click();
  await expect(page.getByText('No calls match these filters.')).toBeVisible();
});

test('annotate a call, show the annotation as a column, filter on its value', async ({ signedInPage: page, api, project }) => {
  await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  await api.objCreate({
    obj: {
      project_id: project,
      object_id: 'quality',
      val: { name: 'quality', description: 'Overall answer quality', field_schema: { type: 'integer', minimum: 1, maximum: 5 } },
      builtin_object_class: 'AnnotationSpec',
    },
  });
  await page.goto(`/${project}/calls`);
  const table = page.getByRole('table', { name: 'Calls' });
  await table.getByRole('link', { name: 'research_agent', exact: true }).first().click();

  const details = page.getByRole('complementary', { name: 'Call details' });
  const annotations = details.getByRole('list', { name: 'Annotations' });
  const quality = annotations.getByLabel('quality');
  await quality.fill('7');
  await expect(annotations).toContainText('At most 5');
  await quality.fill('4');
  await quality.press('Enter');
  await expect(annotations).toContainText('yours, admin');
  await expect(quality).toHaveValue('4');

  await page.getByRole('link', { name: '← Calls' }).click();
  await page.getByRole('button', { name: 'Columns' }).click();
  // The view lives in the URL, so the box shows checked once the navigation lands.
  const toggle = page.getByRole('checkbox', { name: /quality annotation/ });
  await toggle.click();
  await expect(toggle).toBeChecked();
  // The Feedback summary is hidden by default (to fit 1280 px) and shown from the same chooser.
  const summaryToggle = page.getByRole('checkbox', { name: 'Feedback', exact: true });
  await summaryToggle.click();
  await expect(summaryToggle).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: /quality/ })).toBeVisible();
  await expect(table.getByRole('img', { name: '1 annotation' })).toHaveCount(1);

  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByLabel('Field').fill('feedback.[wandb.annotation.quality].payload.value');
  await filter.getByLabel('Operator').selectOption('gt');
  await filter.getByLabel('Value').fill('3');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('1 traces')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('quality (annotation) > 3');
  await expect(table.getByRole('row').nth(1)).toContainText('4');
});

test("a scorer's score shows in the call's detail with the tags and ratings it typed, reasons on hover", async ({
  signedInPage: page,
  api,
  project,
}) => {
  const [trace] = await seedAgentTraces(api, { projectId: project, count: 1, failEvery: 0 });
  // As a monitor's judge writes it through /feedback/create (the reference's typed scorer fields).
  await api.feedbackCreate({
    project_id: project,
    weave_ref: `weave:///${project}/call/${trace!.rootId}`,
    feedback_type: 'wandb.runnable.tone-judge',
    runnable_ref: `weave:///${project}/object/tone-judge:abc123`,
    payload: { output: { score: 0.2 } },
    scorer_tags: ['rude'],
    scorer_tag_reasons: { rude: 'calls the user lazy' },
    scorer_tag_confidences: { rude: 0.9 },
    scorer_ratings: { _rating_: 0.2 },
  });
  await page.goto(`/${project}/traces/${trace!.traceId}?call=${trace!.rootId}`);
  const scores = page.getByRole('complementary', { name: 'Call details' }).getByRole('list', { name: 'Scores' });
  await expect(scores).toContainText('tone-judge');
  await expect(scores).toContainText('0.2');
  await expect(scores.getByText('rude', { exact: true })).toHaveAttribute('title', 'rude: calls the user lazy (90% sure)');
  await expect(scores.getByText('rating 0.2')).toBeVisible();
  await expect(scores).toContainText('admin');
});
