/**
 * Judge calibration on the Judges page, opened by a direct link: a judge's answers beside a
 * reviewer's on four calls show percent agreement, κ and α; Details shows the confusion matrix
 * and the disagreeing call, which goes to a review queue from there.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures/test.js';

test('agreement with reviewers: figures, confusion matrix, disagreements sent to a queue', async ({ signedInPage: page, api, project }) => {
  const ids = [0, 1, 2, 3].map(() => randomUUID());
  const now = new Date().toISOString();
  await api.callUpsertBatch({
    batch: ids.map((id) => ({
      mode: 'start' as const,
      req: { start: { project_id: project, id, trace_id: id, op_name: 'answer', started_at: now, attributes: {}, inputs: { q: id } } },
    })),
  });
  const val = {
    _type: 'AnnotationSpec',
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
    name: 'correct',
    field_schema: { type: 'boolean' },
  };
  const { digest } = await api.objCreate({ obj: { project_id: project, object_id: 'correct', val } });
  const judge = [true, true, false, false];
  const human = [true, false, false, false];
  for (const [i, id] of ids.entries()) {
    const weave_ref = `weave:///${project}/call/${id}`;
    await api.feedbackCreate({
      project_id: project,
      weave_ref,
      feedback_type: 'wandb.runnable.grader',
      runnable_ref: `weave:///${project}/object/grader:v1`,
      payload: { output: { correct: judge[i], reason: 'checked' } },
    });
    await api.feedbackCreate({
      project_id: project,
      weave_ref,
      feedback_type: 'wandb.annotation.correct',
      annotation_ref: `weave:///${project}/object/correct:${digest}`,
      payload: { value: human[i] },
    });
  }
  await api.annotationQueueCreate({ project_id: project, name: 'Judge misses', scorer_refs: [] });

  await page.goto(`/${project}/judges`);
  const table = page.getByRole('table', { name: 'Agreement with reviewers' });
  const row = table.getByRole('row').filter({ hasText: 'grader.correct' });
  // 3 of 4 agree; pₑ = ½·¼ + ½·¾ = ½, so κ = (¾ − ½)/(1 − ½) = 0.5.
  await expect(row).toContainText('75%');
  await expect(row.getByRole('cell').nth(4)).toHaveText('0.50');
  await row.getByRole('button', { name: 'Details of grader against correct' }).click();
  const matrix = page.getByRole('table', { name: 'Confusion matrix of grader' });
  await expect(matrix.getByRole('row')).toHaveText([/false\s*true/, /false\s*2\s*0/, /true\s*1\s*1/]);
  const misses = page.getByRole('list', { name: 'Calls where reviewers disagree with grader' });
  await expect(misses.getByRole('listitem')).toHaveCount(1);
  await expect(misses).toContainText(ids[1]!);

  await page.getByRole('button', { name: 'Add to queue' }).click();
  await page.getByRole('combobox', { name: 'Queue' }).selectOption({ label: 'Judge misses' });
  await page.getByRole('button', { name: 'Add 1 call' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added 1 to Judge misses' })).toBeVisible();
});
