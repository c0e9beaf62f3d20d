/**
 * vitest global setup: one ClickHouse engine for the whole test run, when the ClickHouse
 * backend is among the tested stores (WEFT_TEST_STORES, default `sqlite,clickhouse`). Each
 * suite then works in a database of its own (tempStore.ts), so files never see each other's rows.
 *
 * WEFT_TEST_CLICKHOUSE_URL points the tests at a running server instead (a real clickhouse-server
 * elsewhere). Without an engine, CI=true fails the run; elsewhere the ClickHouse suites are left
 * out with a loud note saying how to get one, as scripts/e2e.js does for Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ENGINE_HELP, startClickHouseEngine, TEST_ENGINE_SETTINGS } from '../../../scripts/clickhouseEngine.js';
import { selectedTestStores } from './testStores.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The ClickHouse server the ClickHouse backend's suites use; null when it is not tested. */
    clickhouseUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const { names, explicit } = selectedTestStores(process.env);
  if (!names.includes('clickhouse')) return project.provide('clickhouseUrl', null);
  const given = process.env.WEFT_TEST_CLICKHOUSE_URL;
  if (given) return project.provide('clickhouseUrl', given);
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-clickhouse-test-'));
  try {
    const engine = await startClickHouseEngine({ dataDir, settings: TEST_ENGINE_SETTINGS });
    project.provide('clickhouseUrl', engine.url);
    return async () => {
      await engine.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI || explicit) throw new Error(`No ClickHouse engine for the ClickHouse store suites: ${reason}`, { cause: err });
    const bar = '!'.repeat(72);
    console.error(`\n${bar}\n  CLICKHOUSE STORE SUITES LEFT OUT: ${reason}\n  ${ENGINE_HELP}\n${bar}\n`);
    project.provide('clickhouseUrl', null);
  }
}
