/**
 * What the size of `calls`' granules costs the reads that fetch given calls (docs/performance.md
 * "Granules of calls"): the table as migrated (8,192-row granules for ~1 KB calls) beside copies
 * made with a smaller `index_granularity_bytes`, the same rows in each, merged to one part. Times
 * a page of 50 scattered calls (a sort other than start time), the 50 newest, the verifying read
 * of a rare word's candidates (callSearch.ts) and a count over every call, with the engine's CPU.
 *
 *   npm run bench:granules [-- --calls 1000000 --tries 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startClickHouseEngine } from '../scripts/clickhouseEngine.js';
import { migrateClickHouse } from '../src/server/store/clickhouse/migrate.js';
import { serverCpu } from './lib.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000000' }, tries: { type: 'string', default: '10' } } });
const CALLS = Number(values.calls);
const TRIES = Number(values.tries);
const VARIANTS = [
  { table: 'calls', label: 'as migrated (10 MiB)' },
  { table: 'calls_1m', label: '1 MiB', bytes: 1 << 20 },
  { table: 'calls_256k', label: '256 KiB', bytes: 1 << 18 },
];

const dir = mkdtempSync(join(tmpdir(), 'weft-granules-'));
const engine = await startClickHouseEngine({ dataDir: join(dir, 'engine') });
const engineCpu = () => serverCpu(engine.pid!).process;
const q = async (sql: string): Promise<string> => {
  const res = await fetch(`${engine.url}/?${new URLSearchParams({ database: 'weft', query: sql })}`, { method: 'POST', body: '' });
  const text = await res.text();
  if (!res.ok) throw new Error(text);
  return text.trim();
};
const idList = (text: string) =>
  text
    .split('\n')
    .map((id) => `'${id}'`)
    .join(',');

try {
  console.log(`load average ${loadavg()[0]!.toFixed(1)}; ${CALLS.toLocaleString('en')} calls`);
  await migrateClickHouse({ url: engine.url, database: 'weft' });
  // Time-ordered ids as the SDKs make them (UUIDv7-like), ~1 KB of chat JSON each; one call in
  // 10,000 holds the rare word. The views fill as they do for any insert.
  await q(`INSERT INTO calls (project_id, id, trace_id, op_name, started_at, ended_at, inputs, output, attributes, part_ts)
    SELECT 'bench/granules', concat('0190', leftPad(hex(number), 12, '0'), '-7', substring(toString(generateUUIDv4()), 16)) AS id, id,
      'weave:///bench/granules/op/chat:x', 1700000000000000 + number * 1000, 1700000000000000 + number * 1000 + 500000,
      concat('{"messages":[{"role":"user","content":"', arrayStringConcat(arrayMap(i -> ['lighthouse', 'harbour', 'ticket', 'refund', 'order',
        'weather', 'station', 'train', 'price', 'answer'][(cityHash64(number, i) % 10) + 1], range(120)), ' '),
        if(number % 10000 = 7, ' zebrafinch', ''), '"}]}'),
      concat('"', randomPrintableASCII(150), '"'), '{}', number
    FROM numbers(${CALLS})`);
  for (const v of VARIANTS.slice(1)) {
    await q(
      `CREATE TABLE ${v.table} AS calls ENGINE = CoalescingMergeTree ORDER BY (project_id, id) SETTINGS index_granularity_bytes = ${v.bytes}`,
    );
    await q(`INSERT INTO ${v.table} SELECT * FROM calls`);
  }
  for (const v of VARIANTS) await q(`OPTIMIZE TABLE ${v.table} FINAL`);

  const scattered = idList(await q('SELECT id FROM calls ORDER BY cityHash64(id) LIMIT 50'));
  const newest = idList(await q('SELECT id FROM calls ORDER BY id DESC LIMIT 50'));
  const rare = idList(await q("SELECT id FROM calls WHERE position(inputs, 'zebrafinch') > 0"));
  const reads: [string, (t: string) => string][] = [
    ['50 scattered calls', (t) => `SELECT * FROM ${t} FINAL PREWHERE project_id = 'bench/granules' AND id IN (${scattered})`],
    ['50 newest calls', (t) => `SELECT * FROM ${t} FINAL PREWHERE project_id = 'bench/granules' AND id IN (${newest})`],
    [
      'a rare word, verified',
      (t) =>
        `SELECT id FROM ${t} FINAL PREWHERE project_id = 'bench/granules' AND id IN (${rare}) WHERE lowerUTF8(inputs) LIKE '%zebrafinch%'`,
    ],
    ['count of started calls', (t) => `SELECT count() FROM ${t} FINAL WHERE project_id = 'bench/granules' AND started_at IS NOT NULL`],
  ];

  const rows: string[][] = [];
  for (const v of VARIANTS) {
    const [marks, bytes, index] = (
      await q(`SELECT sum(marks), sum(bytes_on_disk), sum(secondary_indices_compressed_bytes) FROM system.parts
        WHERE database = 'weft' AND table = '${v.table}' AND active FORMAT TSV`)
    ).split('\t');
    const cells = [v.label, marks!, `${(Number(bytes) / 2 ** 20).toFixed(0)} MiB`, `${(Number(index) / 2 ** 20).toFixed(1)} MiB`];
    for (const [, sql] of reads) {
      await q(`${sql(v.table)} FORMAT Null`); // warm the caches
      const cpu0 = engineCpu();
      const t0 = performance.now();
      for (let i = 0; i < TRIES; i++) await q(`${sql(v.table)} FORMAT Null`);
      cells.push(`${((performance.now() - t0) / TRIES).toFixed(1)} (${(((engineCpu() - cpu0) * 1000) / TRIES).toFixed(0)})`);
    }
    rows.push(cells);
  }
  const header = ['granules', 'marks', 'on disk', 'skip indexes', ...reads.map(([name]) => `${name}: ms (engine CPU ms)`)];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
  for (const cells of rows) console.log(`| ${cells.join(' | ')} |`);
} finally {
  await engine.stop();
  rmSync(dir, { recursive: true, force: true });
}
