/** Which store backends the tests run against: WEFT_TEST_STORES, a comma-separated list. */

/** Every store backend is tested unless WEFT_TEST_STORES narrows the list. */
export const DEFAULT_TEST_STORES = 'sqlite,clickhouse';

export function selectedTestStores(env: NodeJS.ProcessEnv): { names: string[]; explicit: boolean } {
  const names = (env.WEFT_TEST_STORES ?? DEFAULT_TEST_STORES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { names, explicit: env.WEFT_TEST_STORES !== undefined };
}
