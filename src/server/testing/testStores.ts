/** Which store backends the tests run against: WEFT_TEST_STORES, a comma-separated list. */

/**
 * CI tests every backend; a developer's run tests SQLite unless WEFT_TEST_STORES names more, so
 * no ClickHouse engine boots for a quick local run.
 */
export const DEFAULT_TEST_STORES = process.env.CI ? 'sqlite,clickhouse' : 'sqlite';

export function selectedTestStores(env: NodeJS.ProcessEnv): { names: string[]; explicit: boolean } {
  const names = (env.WEFT_TEST_STORES ?? DEFAULT_TEST_STORES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { names, explicit: env.WEFT_TEST_STORES !== undefined };
}
