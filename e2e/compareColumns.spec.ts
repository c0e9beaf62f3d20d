/**
 * The compare table has the column chooser of every other table (docs/dashboard.md "Columns"):
 * opened by a direct link its defaults show both runs' outputs (inside a 1280 px screen), and a
 * choice made there stays after a reload and holds in another comparison, since the baseline's
 * and the compared run's columns are named by their role.
 */
import { publish, seedRun } from './fixtures/seedEvaluations.js';
import { DESKTOP, SCREENS, showsFixed } from './fixtures/screens.js';
import { expect, test } from './fixtures/test.js';

test(
  'the compare table chooses its columns, remembered across reloads and comparisons',
  { tag: SCREENS },
  async ({ signedInPage: page, api, project }) => {
    test.setTimeout(90_000);
    const f = await publish(api, project);
    const a = await seedRun(api, f, 'model-a', [['Paris, on the Seine'], ['Rome'], ['Madrid']]);
    const b = await seedRun(api, f, 'model-b', [['Lyon'], ['Rome, the eternal city'], ['Madrid']]);
    const c = await seedRun(api, f, 'model-c', [['Paris'], ['Milan'], ['Madrid']]);

    await page.goto(`/${project}/evaluations/compare?runs=${a},${b}`);
    const compared = page.getByRole('table', { name: 'Compared results' });
    const header = (name: string) => compared.getByRole('columnheader').filter({ hasText: new RegExp(`^${name}`) });
    await expect(compared.getByRole('row', { name: /Capital of France/ })).toBeVisible();
    // By default: the first field, a column per metric for the pair, and both outputs.
    for (const name of ['question', 'correct A→B', 'brevity A→B', 'Output A', 'Output B']) await expect(header(name)).toBeVisible();
    await expect(header('expected')).toHaveCount(0);
    if (page.viewportSize()!.width >= DESKTOP.width) {
      for (const name of ['Output A', 'Output B']) {
        const box = (await header(name).boundingBox())!;
        expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(DESKTOP.width);
      }
    }

    // The chooser lists every column, those shown ticked.
    await compared.getByRole('button', { name: 'Columns of Compared results' }).click();
    const box = (name: string) => page.getByRole('checkbox', { name, exact: true });
    await expect(box('Output A')).toBeChecked();
    await expect(box('Output B')).toBeChecked();
    await expect(box('correct A')).not.toBeChecked();
    await box('expected').check();
    await box('brevity A→B').uncheck();
    await page.keyboard.press('Escape');
    await expect(header('expected')).toBeVisible();
    await expect(header('brevity A→B')).toHaveCount(0);

    await page.reload();
    await expect(compared.getByRole('row', { name: /Capital of France/ })).toBeVisible();
    await expect(header('expected')).toBeVisible();
    await expect(header('brevity A→B')).toHaveCount(0);
    await expect(header('Output B')).toBeVisible();

    // Another pair of runs: the same choice, as it names roles, not runs.
    await page.goto(`/${project}/evaluations/compare?runs=${b},${c}`);
    await expect(compared.getByRole('row', { name: /Capital of Italy/ })).toContainText('Milan');
    await expect(header('expected')).toBeVisible();
    await expect(header('brevity A→B')).toHaveCount(0);
    await expect(header('correct A→B')).toBeVisible();
    await showsFixed(page, '9-compare-columns');
  },
);
