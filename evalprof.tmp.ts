import { SqliteStore } from '/work/wt/evalrows/src/server/store/sqlite/SqliteStore.js';
import { childrenOf } from '/work/wt/evalrows/src/server/domain/evaluationCalls.js';
import { loadEvalRows } from '/work/wt/evalrows/src/server/domain/evalResultsRows.js';
const store = new SqliteStore(process.argv[2]!);
const P = 'bench/evalresults';
for (let k = 0; k < 2; k++) {
  let t = performance.now();
  await childrenOf(store, P, ['eval-root']);
  console.log('children full', (performance.now() - t).toFixed(0));
  t = performance.now();
  await childrenOf(store, P, ['eval-root'], ['parent_id', 'inputs']);
  console.log('children keys', (performance.now() - t).toFixed(0));
  t = performance.now();
  await loadEvalRows(store, { projectId: P, evalIds: ['eval-root'], children: false, costs: false, keysOnly: true });
  console.log('loadEvalRows keys', (performance.now() - t).toFixed(0));
  t = performance.now();
  await loadEvalRows(store, { projectId: P, evalIds: ['eval-root'], children: 'open', costs: false });
  console.log('loadEvalRows open', (performance.now() - t).toFixed(0));
}
await store.close();
