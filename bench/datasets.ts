/**
 * The dataset page's saves and reads on a big dataset (`npm run bench:datasets`); prints
 * figures beside their goals, asserts nothing (docs/performance.md "Dataset page").
 *
 * One in-process server on a fresh SQLite file; a dataset of BENCH_ROWS rows (default 100,000,
 * ~150 bytes each) saved through the page's own save path (src/client/datasetVersions.ts).
 * Then, each the median of BENCH_TRIES runs (default 5):
 * - a cell edit saved as a new version (`/table/update` + `/obj/create`), against publishing
 *   every row again (`/table/create` + `/obj/create`, what a client without /table/update
 *   does): the ratio is what the update path saves;
 * - a column renamed (every row read and written again);
 * - every row of a version read (what the diff and the exports fetch), and the first and last
 *   page of 100 rows (what the virtualized table fetches);
 * - the row diff of two versions with 10 edits spread over the table (in this process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../src/client/index.js';
import { readAllRows, saveDatasetEdits, saveDatasetRows, type DatasetRow } from '../src/client/datasetVersions.js';
import { diffRows, type StoredRow } from '../src/web/features/datasets/datasetModel.js';
import { startBenchServer, timeMedian } from './lib.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const TRIES = Number(process.env.BENCH_TRIES ?? 5);
const PROJECT = 'bench/datasets';
const GOALS = { cellEdit: 100, firstPage: 50, diff: 200 };

const row = (k: number): DatasetRow => ({
  id: k,
  question: `Question ${k}: what does the agent answer when the user asks about item ${k % 977}?`,
  answer: `Answer ${k % 131}`,
  score: (k % 10) / 10,
});

const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-bench-datasets-'));
  const { server } = await startBenchServer(dataDir);
  const client = createClient({ baseUrl: server.url, auth: { username: 'admin', password: 'bench' } });
  try {
    const rows = Array.from({ length: ROWS }, (_, k) => row(k));
    const t0 = performance.now();
    // One /table/create of every row, in slices appended so no request passes the body limit.
    const SLICE = 20_000;
    let v = await saveDatasetRows(client, { projectId: PROJECT, objectId: 'big', baseVal: null, rows: rows.slice(0, SLICE) });
    for (let k = SLICE; k < ROWS; k += SLICE) {
      const { obj } = await client.objRead({ project_id: PROJECT, object_id: 'big', digest: v.digest });
      v = await saveDatasetEdits(client, {
        projectId: PROJECT,
        objectId: 'big',
        baseVal: obj.val as Record<string, unknown>,
        edits: { append: rows.slice(k, k + SLICE) },
      });
    }
    console.log(`Seeded ${ROWS.toLocaleString()} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const { obj } = await client.objRead({ project_id: PROJECT, object_id: 'big', digest: v.digest });
    const baseVal = obj.val as Record<string, unknown>;

    let n = 0;
    const cellEdit = await timeMedian(async () => {
      const index = (n++ * 7919) % ROWS;
      await saveDatasetEdits(client, {
        projectId: PROJECT,
        objectId: 'big',
        baseVal,
        edits: { replace: [{ index, row: { ...row(index), answer: `edited ${n}` } }] },
      });
    }, TRIES);
    const republish = await timeMedian(async () => {
      const index = (n++ * 7919) % ROWS;
      const all = rows.map((r, k) => (k === index ? { ...r, answer: `edited ${n}` } : r));
      await saveDatasetRows(client, { projectId: PROJECT, objectId: 'big', baseVal, rows: all });
    }, TRIES);
    const rename = await timeMedian(
      () =>
        saveDatasetEdits(client, {
          projectId: PROJECT,
          objectId: 'big',
          baseVal,
          edits: { columns: [{ op: 'rename', from: 'answer', to: `a${n++}` }] },
        }),
      TRIES,
    );
    const readAll = await timeMedian(() => readAllRows(client, PROJECT, v.tableDigest), TRIES);
    const firstPage = await timeMedian(
      () => client.tableQuery({ project_id: PROJECT, digest: v.tableDigest, limit: 100, offset: 0 }),
      TRIES,
    );
    const lastPage = await timeMedian(
      () => client.tableQuery({ project_id: PROJECT, digest: v.tableDigest, limit: 100, offset: ROWS - 100 }),
      TRIES,
    );

    const before: StoredRow[] = (await client.tableQuery({ project_id: PROJECT, digest: v.tableDigest })).rows;
    const after = before.map((r, k) =>
      k % Math.floor(ROWS / 10) === 17 ? { digest: `edited-${k}`, val: { ...(r.val as object), answer: 'x' } } : r,
    );
    let changed = 0;
    const diff = await timeMedian(() => {
      changed = diffRows(before, after).filter((d) => d.kind === 'changed').length;
    }, TRIES);

    console.log(`\nDataset of ${ROWS.toLocaleString()} rows, median of ${TRIES}:`);
    console.log(`  cell edit saved as a version   ${fmt(cellEdit)}   (goal ≤ ${GOALS.cellEdit} ms)`);
    console.log(`  every row published again      ${fmt(republish)}   (cell edit / republish = ${(cellEdit / republish).toFixed(3)})`);
    console.log(`  column renamed (all rows)      ${fmt(rename)}   (rename / republish = ${(rename / republish).toFixed(2)})`);
    console.log(`  every row read (diff, export)  ${fmt(readAll)}`);
    console.log(`  first page of 100 rows         ${fmt(firstPage)}   (goal ≤ ${GOALS.firstPage} ms)`);
    console.log(`  last page of 100 rows          ${fmt(lastPage)}   (goal ≤ ${GOALS.firstPage} ms)`);
    console.log(`  row diff, 10 edits spread      ${fmt(diff)}   (goal ≤ ${GOALS.diff} ms; ${changed} changed rows found)`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
