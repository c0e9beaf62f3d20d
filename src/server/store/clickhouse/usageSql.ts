/**
 * The one usage rule (core/usage.ts `USAGE_RULE`) printed as ClickHouse SQL over one usage
 * entry `u`, a (model, raw JSON) tuple from `JSONExtractKeysAndValuesRaw(summary, 'usage')`.
 * Only fixed text from USAGE_RULE enters SQL.
 */
import { USAGE_RULE } from '../../core/usage.js';

/** The usage entries of a call's summary, as (model, raw JSON) tuples; callers keep the object ones (USAGE_ENTRY_IS_OBJECT). */
export const USAGE_ENTRIES = "JSONExtractKeysAndValuesRaw(ifNull(summary, '{}'), 'usage')";
export const USAGE_ENTRY_IS_OBJECT = "JSONType(u.2) = 'Object'";

/** One count of entry `u`: a JSON number truncated to an integer, else 0 (`usageCount`). */
export const usageCountSql = (key: string) =>
  `if(JSONType(u.2, '${key}') IN ('Int64', 'UInt64', 'Double'), toInt64(JSONExtractFloat(u.2, '${key}')), 0)`;

const sumSql = (keys: readonly string[]) => `(${keys.map(usageCountSql).join(' + ')})`;

/** Input (prompt) and output (completion) tokens of entry `u`. */
export const ENTRY_INPUT_TOKENS = sumSql(USAGE_RULE.input);
export const ENTRY_OUTPUT_TOKENS = sumSql(USAGE_RULE.output);

/** Total tokens of entry `u`: a positive reported total, else input + output. */
export const ENTRY_TOTAL_TOKENS = `if(${usageCountSql(USAGE_RULE.reportedTotal)} > 0, ${usageCountSql(USAGE_RULE.reportedTotal)}, ${ENTRY_INPUT_TOKENS} + ${ENTRY_OUTPUT_TOKENS})`;

/** A call's total tokens: the sum of ENTRY_TOTAL_TOKENS over its summary's object usage entries (0 without any). */
export const SUMMARY_TOKENS = `arraySum(u -> if(${USAGE_ENTRY_IS_OBJECT}, ${ENTRY_TOTAL_TOKENS}, 0), ${USAGE_ENTRIES})`;

const OBJECT_ENTRIES = `arrayFilter(u -> ${USAGE_ENTRY_IS_OBJECT}, ${USAGE_ENTRIES})`;

/** A call's input and output tokens per model, as JSON text `[[model, input, output], …]` over its object usage entries. */
export const SUMMARY_USAGE = `toJSONString(arrayMap(u -> (u.1, ${ENTRY_INPUT_TOKENS}, ${ENTRY_OUTPUT_TOKENS}), ${OBJECT_ENTRIES}))`;

/**
 * Everything a stats usage cell (StatsStore.ts UsageCell) adds up of a call, one element per
 * object usage entry, as JSON text `[[model, input, output, total, cache read, cache creation], …]`;
 * read back with SUMMARY_USAGE_CELLS_TYPE.
 */
export const SUMMARY_USAGE_CELLS = `toJSONString(arrayMap(u -> (u.1, ${ENTRY_INPUT_TOKENS}, ${ENTRY_OUTPUT_TOKENS}, ${ENTRY_TOTAL_TOKENS},
  ${usageCountSql(USAGE_RULE.cacheRead)}, ${usageCountSql(USAGE_RULE.cacheCreation)}), ${OBJECT_ENTRIES}))`;
export const SUMMARY_USAGE_CELLS_TYPE = 'Array(Tuple(String, Int64, Int64, Int64, Int64, Int64))';
