/**
 * The calls table's query fields as SQLite expressions (query/ir.ts `ScalarField`), and the
 * storage sizes. Only fixed text: column names from the plan's closed unions.
 */
import type { ComputedField, ScalarField } from '../query/index.js';
import { callCostSql, callInputTokensSql, callOutputTokensSql, callTokensSql } from './usageSql.js';

/** Bytes a call takes in storage: the JSON and text payloads it carries. */
export function storageSizeSql(table = 'calls'): string {
  const cols = ['attributes', 'inputs', 'output', 'summary', 'exception'];
  // Inputs and output holding markers count as the original text (docs/history-storage.md).
  const size = (c: string) =>
    c === 'inputs' || c === 'output' ? `coalesce(${table}.${c}_chars, length(${table}.${c}), 0)` : `coalesce(length(${table}.${c}), 0)`;
  return `(${cols.map(size).join(' + ')})`;
}

/**
 * Every text a call row may hold in quantity, in bytes, read without loading it: octet_length
 * takes a value's size from its record header (~2 µs for a 10 MB value, where length() counts
 * its characters: ~3 ms). Ids and names are bounded by the request that wrote them.
 */
export const STORED_BYTES_SQL = `(${['attributes', 'inputs', 'output', 'summary', 'exception', 'otel_dump', 'input_refs', 'output_refs']
  .map((c) => (c === 'inputs' || c === 'output' ? `coalesce(${c}_chars, octet_length(${c}), 0)` : `coalesce(octet_length(${c}), 0)`))
  .join(' + ')})`;

/** Storage of a whole trace, reported on its root call only. */
export const TOTAL_STORAGE_SIZE_SQL =
  `CASE WHEN calls.parent_id IS NULL THEN (SELECT sum(${storageSizeSql('t')}) FROM calls t` +
  ' WHERE t.project_id = calls.project_id AND t.trace_id = calls.trace_id AND t.deleted_at IS NULL) END';

/** `summary.weave.status`, as the reference computes it for filtering and sorting. */
export const STATUS_SQL =
  "(CASE WHEN exception IS NOT NULL THEN 'error'" +
  " WHEN coalesce(json_extract(summary, '$.status_counts.error'), 0) > 0 THEN 'descendant_error'" +
  " WHEN ended_at IS NULL THEN 'running' ELSE 'success' END)";

/** `summary.weave.latency_ms`: whole milliseconds, null while running. */
export const LATENCY_MS_SQL = '((ended_at - started_at) / 1000)';

/** `summary.weave.trace_name`: the display name, else the op's name. */
export const TRACE_NAME_SQL = "coalesce(nullif(display_name, ''), op_base_name)";

const COMPUTED_SQL: Record<ComputedField['name'], () => string> = {
  status: () => STATUS_SQL,
  latency_ms: () => LATENCY_MS_SQL,
  trace_name: () => TRACE_NAME_SQL,
  total_tokens: () => callTokensSql('calls'),
  input_tokens: () => callInputTokensSql('calls'),
  output_tokens: () => callOutputTokensSql('calls'),
  total_cost: () => callCostSql('calls'),
};

/** A scalar field as SQL; feedback columns read the `fb` row of the enclosing feedback subquery. */
export function fieldSql(f: ScalarField): string {
  switch (f.kind) {
    case 'column':
      return f.emptyIsNull ? `nullif(${f.column}, '')` : f.column;
    case 'computed':
      return COMPUTED_SQL[f.name]();
    case 'feedbackColumn':
      return `fb.${f.column}`;
  }
}
