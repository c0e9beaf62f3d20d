/**
 * Bulk seeding for the ClickHouse benchmarks at 10M calls: the engine makes the calls itself with
 * `INSERT INTO calls (...) SELECT ... FROM numbers(...)`, the generator a benchmark's JavaScript
 * seeder follows, in chunks, so every chunk goes through the materialized views that Weft's own
 * inserts feed (calls_by_start, thread_turns and any later ones: docs/clickhouse.md "Writes that
 * fail half-way"). Seeding 10M calls through Weft's writer took half an hour here; the engine
 * makes them in minutes. The benchmark still writes its last calls through Weft (docs/performance.md).
 */
import type { BenchDataset } from './backend.js';
import { ClickHouseDatabase } from '../src/server/store/clickhouse/ClickHouseDatabase.js';

/**
 * What one generated row holds, as SQL over `n` (the row number) and the aliases that earlier
 * entries define: the columns Weft's writer sets for a call whose start and end came in one
 * batch (callConverters.ts startColumns and endColumns; part_ts is the start's, as there).
 */
export interface CallsGenerator {
  /** `expr AS name` items computed first, usable by the columns. */
  aliases: string[];
  columns: {
    project_id: string;
    id: string;
    trace_id: string;
    parent_id: string;
    thread_id: string;
    turn_id: string;
    op_name: string;
    started_at: string;
    attributes: string;
    inputs: string;
    ended_at: string;
    exception: string;
    output: string;
    summary: string;
  };
}

/** A SQL string literal. */
export const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The op name's display part, as core/opNames.ts opDisplayName for `weave:///e/p/op/name:digest` refs. */
const OP_BASE_NAME = `if(match(op_name, '^weave:///[^/]+/[^/]+/op/[^:/]+'),
  decodeURLComponent(extract(op_name, '^weave:///[^/]+/[^/]+/op/([^:/]+)')), op_name)`;

/**
 * Inserts rows `from` to `to` (exclusive) of `gen` into the dataset's calls, `chunk` rows per
 * INSERT, printing progress; registers the project first as Weft's writer does.
 */
export async function bulkInsertCalls(
  dataset: BenchDataset,
  project: string,
  gen: CallsGenerator,
  from: number,
  to: number,
  chunk = 1_000_000,
): Promise<void> {
  const db = new ClickHouseDatabase({ ...dataset.clickhouse!, longStatements: true });
  const t0 = performance.now();
  try {
    const now = Date.now() * 1000;
    await db.insert('projects', [{ project_id: project, entity: project.split('/')[0], created_at: now }]);
    const c = gen.columns;
    const select = `SELECT ${c.project_id} AS project_id, ${c.id} AS id, ${c.trace_id} AS trace_id, ${c.parent_id} AS parent_id,
        ${c.thread_id} AS thread_id, ${c.turn_id} AS turn_id, ${c.op_name} AS op_name, ${OP_BASE_NAME} AS op_base_name,
        CAST(NULL, 'Nullable(String)') AS display_name, ${c.started_at} AS started_at, ${c.attributes} AS attributes,
        ${c.inputs} AS inputs, CAST(NULL, 'Nullable(String)') AS otel_dump, CAST(NULL, 'Nullable(String)') AS input_refs,
        'bench' AS wb_user_id, CAST(NULL, 'Nullable(String)') AS wb_run_id, CAST(NULL, 'Nullable(Int64)') AS wb_run_step,
        ${c.ended_at} AS ended_at, ${c.exception} AS exception, ${c.output} AS output, ${c.summary} AS summary,
        CAST(NULL, 'Nullable(String)') AS output_refs, CAST(NULL, 'Nullable(Int64)') AS wb_run_step_end,
        started_at AS part_ts, ${now} AS start_seen_at, ${now} AS end_seen_at`;
    const columns =
      'project_id, id, trace_id, parent_id, thread_id, turn_id, op_name, op_base_name, display_name, started_at, attributes, inputs, ' +
      'otel_dump, input_refs, wb_user_id, wb_run_id, wb_run_step, ended_at, exception, output, summary, output_refs, wb_run_step_end, ' +
      'part_ts, start_seen_at, end_seen_at';
    for (let at = from; at < to; at += chunk) {
      const count = Math.min(chunk, to - at);
      await db.command(
        `INSERT INTO calls (${columns})
         SELECT ${columns} FROM (${select} FROM (SELECT number AS n, ${gen.aliases.join(', ')} FROM numbers(${at}, ${count})))`,
      );
      const s = (performance.now() - t0) / 1000;
      process.stdout.write(
        `\rBulk insert by the engine: ${(at + count - from).toLocaleString('en')} / ${(to - from).toLocaleString('en')} calls, ${s.toFixed(0)} s`,
      );
    }
    const s = (performance.now() - t0) / 1000;
    console.log(` (${Math.round((to - from) / s).toLocaleString('en')} calls/s, views included)`);
  } finally {
    await db.close();
  }
}
