#!/usr/bin/env node
// `npm run clickhouse`: a local ClickHouse engine (scripts/clickhouseEngine.js) on a data
// directory that survives restarts, for `WEFT_STORE=clickhouse npm start` against it.
// Options: --data-dir <dir> (default ./.weft/clickhouse), --port <http port> (default 8123).
// Ctrl-C stops it.
import { resolve } from 'node:path';
import { startClickHouseEngine } from './clickhouseEngine.js';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(arg('data-dir') ?? '.weft/clickhouse');
const httpPort = Number(arg('port') ?? 8123);

try {
  const engine = await startClickHouseEngine({ dataDir, httpPort, quiet: false });
  const version = await (await fetch(`${engine.url}/?query=SELECT%20version()`)).text();
  console.log(`ClickHouse ${version.trim()} listening on ${engine.url} (data in ${dataDir}, started in ${engine.startMs} ms)`);
  console.log('\nIn another terminal:\n');
  console.log(`  WEFT_STORE=clickhouse WEFT_CLICKHOUSE_URL=${engine.url} npx weft migrate`);
  console.log(`  WEFT_STORE=clickhouse WEFT_CLICKHOUSE_URL=${engine.url} npm start\n`);
  console.log('Ctrl-C stops the engine; the data stays for the next start.');
  const stop = async () => {
    await engine.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
