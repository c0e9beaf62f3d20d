/**
 * The demo shows every job on a first run: `weft demo` loads a project, and the threads,
 * evaluations and annotation pages each have something to show without writing code.
 * (The no-password path, a temporary key from the data directory, is covered by
 * src/server/demo/demoCommand.test.ts, which can reach the server's data directory.)
 */
import { demoCommand } from '../src/server/demo/demoCommand.js';
import { E2E_ADMIN } from './fixtures/credentials.js';
import { expect, test } from './fixtures/test.js';

test('the demo project has threads, evaluation runs, queues with answers and reactions, a leaderboard and a view', async ({
  signedInPage: page,
  project,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await demoCommand(['--url', baseURL!, '--project', project, '--traces', '40', '--password', E2E_ADMIN.password]);

  // Conversations whose follow-ups are answered in turn.
  await page.goto(`/${project}/threads`);
  const threads = page.getByRole('table', { name: 'Threads' });
  await expect(threads.getByRole('row').nth(1)).toBeVisible();

  // Three runs of one evaluation, three scorers each, ready to compare.
  await page.goto(`/${project}/evaluations`);
  await expect(page.getByText('3 runs')).toBeVisible();
  const runs = page.getByRole('table', { name: 'Evaluation runs' });
  await expect(runs.getByRole('row', { name: /support-bot-gpt-4\.1/ })).toBeVisible();

  // Queues with typed questions, answers and work left.
  await page.goto(`/${project}/annotation`);
  const queue = page.getByRole('row', { name: /Answer quality/ });
  await expect(queue).toContainText('verdict, grounded, helpful, comment');
  await expect(page.getByRole('row', { name: /Conversation review/ })).toBeVisible();
  await queue.getByRole('link', { name: 'Answer quality', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Reviewer progress' })).toContainText('admin');
  await expect(page.getByRole('region', { name: 'Answers to verdict' })).toContainText('8 answers');

  // Reactions left on calls show in the Feedback column, drawn as icons.
  await page.goto(`/${project}/calls`);
  const calls = page.getByRole('table', { name: 'Calls' });
  // Hidden by default (to fit 1280 px): shown from the column chooser.
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Feedback', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Feedback', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(calls.getByRole('columnheader', { name: 'Feedback' })).toBeVisible();
  await expect(calls.locator('svg[data-emoji="👍"]').first()).toBeVisible();

  // A leaderboard of the three models, and a saved view of the failed traces in the sidebar.
  await page.goto(`/${project}/leaderboards`);
  await page.getByRole('link', { name: 'support-leaderboard' }).click();
  const board = page.getByRole('table', { name: 'Leaderboard support-leaderboard' });
  await expect(board.getByRole('row')).toHaveCount(4);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Failed traces' }).click();
  await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('f')).toBe('[["summary.weave.status","eq","error"]]');
  await page.getByRole('button', { name: 'Views', exact: true }).click();
});
