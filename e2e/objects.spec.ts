/**
 * Objects: browse a project's versioned objects, page through a dataset's rows on the server,
 * label versions (aliases move, bad names are refused in words), compare two versions, and
 * follow refs from a call's inputs to the object, the row and the op's code.
 */
import { seedCallWithRefs, seedDataset, seedOtherObjects } from './fixtures/seedObjects.js';
import { expect, test } from './fixtures/test.js';

test('page through a dataset, alias a version and compare two versions', async ({ signedInPage: page, api, project }) => {
  const [v0, v1] = await seedDataset(api, { projectId: project, name: 'qa-dataset', sizes: [600, 640] });
  await seedOtherObjects(api, { projectId: project, datasetRef: v1!.ref });

  // The list: every kind in its tab, latest version and version count per object.
  await page.goto(`/${project}/objects`);
  const list = page.getByRole('table', { name: 'Objects' });
  await page.getByRole('tab', { name: /Datasets/ }).click();
  await expect(list.getByRole('row')).toHaveCount(2);
  const datasetRow = list.getByRole('row', { name: /qa-dataset/ });
  await expect(datasetRow).toContainText('Dataset');
  await expect(datasetRow.getByRole('cell').nth(2)).toHaveText('2');
  await page.getByRole('tab', { name: /Ops/ }).click();
  await expect(list.getByRole('link', { name: 'answer', exact: true })).toBeVisible();
  await page.getByLabel('Search objects by name').fill('adder');
  await expect(list.getByRole('row')).toHaveCount(4); // header + the evaluation's three ops
  await expect(page).toHaveURL(/kind=op&q=adder/);

  // A dataset opens on its rows: 640 of them, fetched a page at a time while scrolling.
  await page.goto(`/${project}/objects`);
  await list.getByRole('link', { name: 'qa-dataset' }).click();
  await expect(page.getByRole('heading', { name: 'qa-dataset' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Rows' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('640 rows')).toBeVisible();
  const rows = page.getByRole('table', { name: 'rows of v1' });
  await expect(rows).toContainText('What is 3 + 3?');
  const pageRequests: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/table/query')) pageRequests.push((r.postDataJSON() as { offset: number }).offset);
  });
  await rows.evaluate((el) => (el.scrollTop = 350 * 32));
  await expect(rows.getByRole('row', { name: /What is 352 \+ 352\?/ })).toBeVisible();
  await rows.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(rows.getByRole('row', { name: /What is 639 \+ 639\?/ })).toBeVisible();
  expect(pageRequests).toEqual(expect.arrayContaining([300, 600]));
  expect(pageRequests).not.toContain(0); // the first page was not fetched again

  // Sort by a column on the server.
  await rows.getByRole('button', { name: /answer/ }).click();
  await expect(page).toHaveURL(/sort=answer%3Aasc/);
  await expect(page.getByText('sorted by answer ↑')).toBeVisible();

  // Aliases: set one on v0, move it to v1; a reserved name is refused in words.
  const versions = page.getByRole('table', { name: 'Versions' });
  await versions.getByRole('button', { name: 'Add alias to v0' }).click();
  await page.getByLabel('New alias for v0').fill('prod');
  await page.getByLabel('New alias for v0').press('Enter');
  await expect(versions.getByRole('list', { name: 'Aliases of v0' })).toContainText('prod');
  await versions.getByRole('button', { name: 'Add alias to v1' }).click();
  await page.getByLabel('New alias for v1').fill('prod');
  await page.getByLabel('New alias for v1').press('Enter');
  await expect(versions.getByRole('list', { name: 'Aliases of v1' })).toContainText('prod');
  await expect(versions.getByRole('list', { name: 'Aliases of v0' })).toHaveCount(0);
  await versions.getByRole('button', { name: 'Add alias to v0' }).click();
  await page.getByLabel('New alias for v0').fill('v7');
  await page.getByLabel('New alias for v0').press('Enter');
  await expect(page.getByRole('alert')).toContainText('Could not point alias “v7” at v0');
  await expect(page.getByRole('alert')).toContainText('reserved');
  await page.getByLabel('New alias for v0').press('Escape');
  await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Tags: add one and remove it again.
  await versions.getByRole('button', { name: 'Add tag to v1' }).click();
  await page.getByLabel('New tag for v1').fill('reviewed');
  await page.getByLabel('New tag for v1').press('Enter');
  await expect(versions.getByRole('list', { name: 'Tags of v1' })).toContainText('reviewed');
  await versions.getByRole('button', { name: 'Remove tag reviewed from v1' }).click();
  await expect(versions.getByRole('list', { name: 'Tags of v1' })).toHaveCount(0);
  const stored = await api.objRead({ project_id: project, object_id: 'qa-dataset', digest: 'prod' });
  expect(stored.obj.digest).toBe(v1!.digest);

  // Compare v0 with v1: the rows table and the description changed.
  const v0Row = versions.getByRole('row').filter({ has: page.getByRole('button', { name: 'v0', exact: true }) });
  await v0Row.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
  const diff = page.getByRole('table', { name: 'Differences' });
  await expect(diff.getByRole('row')).toHaveCount(3);
  await expect(diff.getByRole('row', { name: /description/ })).toContainText('600 rows');
  await expect(diff.getByRole('row', { name: /description/ })).toContainText('640 rows');
  await expect(diff.getByRole('row', { name: /^changed rows/ })).toContainText(v0!.tableDigest.slice(0, 8));
  await expect(page.getByText('0 added · 0 removed · 2 changed')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('against')).toBe(v0!.digest);

  // The comparison is in the URL: a reload shows it again.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Differences' }).getByRole('row')).toHaveCount(3);
});

test('refs in a call open the object, the row and the op', async ({ signedInPage: page, api, project }) => {
  const [v0, v1] = await seedDataset(api, { projectId: project, name: 'eval-set', sizes: [120, 130] });
  const { opRef } = await seedOtherObjects(api, { projectId: project, datasetRef: v1!.ref });
  const rowRef = `${v0!.ref}/attr/rows/id/${v0!.rowDigests[42]}`;
  const call = await seedCallWithRefs(api, {
    projectId: project,
    opRef,
    inputs: { question: 'What is 5 + 5?', dataset: v0!.ref, example: rowRef },
  });

  // A dataset ref in the inputs opens the dataset at that version (not the latest).
  await page.goto(`/${project}/calls`);
  await page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: 'answer', exact: true }).click();
  const inputs = page.getByRole('complementary', { name: 'Call details' }).getByRole('tree', { name: 'Inputs' });
  await inputs
    .getByRole('link', { name: /eval-set.*$/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/objects/eval-set\\?version=${v0!.digest}`));
  await expect(page.getByRole('heading', { name: 'eval-set' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Versions' }).getByRole('row', { selected: true })).toContainText('v0');
  await expect(page.getByText('120 rows')).toBeVisible();

  // A ref to one row opens the dataset's rows with that row beside them.
  await page.goBack();
  await inputs.getByRole('link', { name: /rows#/ }).click();
  const row = page.getByRole('complementary', { name: 'Row' });
  await expect(row.getByRole('heading', { name: 'Row #42' })).toBeVisible();
  await expect(row.getByRole('tree', { name: 'Row value' })).toContainText('What is 42 + 42?');

  // The op ref of the call opens the op at its version, on its highlighted code.
  await page.goBack();
  await page
    .getByRole('complementary', { name: 'Call details' })
    .getByRole('link', { name: /answer/ })
    .first()
    .click();
  // The call page has 'answer' headings of its own (its title and its op): wait until the op's page is in.
  await expect(page).toHaveURL(/\/objects\/answer\?version=/);
  await expect(page.getByRole('heading', { level: 1, name: 'answer' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Code' })).toHaveAttribute('aria-selected', 'true');
  const code = page.getByLabel('Source code');
  await expect(code).toContainText('def answer(question: str');
  await expect(code.locator('.tok-keyword', { hasText: 'def' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Versions' }).getByRole('row', { selected: true })).toContainText('v0');

  // A ref with a path into a value opens the value there, the target row marked.
  const evaluation = (await api.objsQuery({ project_id: project, filter: { object_ids: ['adder-eval'] } })).objs[0]!;
  await page.goto(`/${project}/objects/adder-eval?version=${evaluation.digest}&path=attr/scorers/index/0`);
  const value = page.getByRole('tree', { name: 'Value of v0' });
  await expect(value.locator('[aria-current="location"]')).toContainText('exact_match');

  // A call ref opens the trace with that call selected.
  await page.goto(`/${project}/calls/${call.id}`);
  await expect(page).toHaveURL(new RegExp(`/traces/${call.traceId}\\?call=${call.id}`));
  await expect(page.getByRole('complementary', { name: 'Call details' })).toContainText(call.id);
});
