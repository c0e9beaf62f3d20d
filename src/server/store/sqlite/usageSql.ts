/**
 * Token and cost expressions over `summary.usage`, as SQLite SQL, so that calls and threads
 * can be sorted and filtered by them on the server.
 *
 * The token counts are printed from `USAGE_RULE` (core/usage.ts), the one definition of how
 * usage becomes tokens; `usageSql.test.ts` checks on a table of awkward usage shapes that this
 * SQL and the JavaScript reader give the same numbers. Costs match domain/stats/costs.ts: each model
 * priced by the candidate `pickPrice` would choose (in force at the given time first, then the
 * project's own price over the default list, then the newest). A call or thread none of whose
 * models has a price costs NULL, so it sorts after every priced one. Only fixed text goes into
 * SQL; callers pass column expressions they own, never request values.
 */
import { USAGE_RULE } from '../../core/usage.js';

/**
 * `summary.usage` entries that are objects (a model's usage), as json_each rows `u`. Object
 * members have text keys; an array's elements (integer keys) are not models.
 */
export const usageEntriesSql = (summary: string) => `json_each(${summary}, '$.usage') u`;
export const USAGE_ENTRY_WHERE = "u.type = 'object' AND typeof(u.key) = 'text'";

/** One count: a JSON number truncated to an integer, anything else 0 (`usageCount`). */
const countSql = (entry: string, key: string) =>
  `iif(json_type(${entry}, '$.${key}') IN ('integer', 'real'), CAST(json_extract(${entry}, '$.${key}') AS INTEGER), 0)`;

const sumSql = (entry: string, keys: readonly string[]) => `(${keys.map((k) => countSql(entry, k)).join(' + ')})`;

/** Input (prompt) and output (completion) tokens of one usage entry. */
export const promptTokensSql = (entry: string) => sumSql(entry, USAGE_RULE.input);
export const completionTokensSql = (entry: string) => sumSql(entry, USAGE_RULE.output);

/** Total tokens of one usage entry: a positive reported total, else input + output. */
export const entryTotalTokensSql = (entry: string) => {
  const reported = countSql(entry, USAGE_RULE.reportedTotal);
  return `(CASE WHEN ${reported} > 0 THEN ${reported} ELSE ${promptTokensSql(entry)} + ${completionTokensSql(entry)} END)`;
};

/** Total tokens of a call (`summary.weave.total_tokens`); NULL when the summary has no usage entry. */
export const callTokensSql = (calls: string) =>
  `(SELECT sum(${entryTotalTokensSql('u.value')}) FROM ${usageEntriesSql(`${calls}.summary`)} WHERE ${USAGE_ENTRY_WHERE})`;

/** Input and output tokens of a call, summed over its models; NULL without usage. */
export const callInputTokensSql = (calls: string) =>
  `(SELECT sum(${promptTokensSql('u.value')}) FROM ${usageEntriesSql(`${calls}.summary`)} WHERE ${USAGE_ENTRY_WHERE})`;
export const callOutputTokensSql = (calls: string) =>
  `(SELECT sum(${completionTokensSql('u.value')}) FROM ${usageEntriesSql(`${calls}.summary`)} WHERE ${USAGE_ENTRY_WHERE})`;

/** The id of the price that applies to model `llm` for project `project` at time `at` (µs). */
export const pickPriceSql = (o: { llm: string; project: string; at: string }) =>
  `(SELECT p2.id FROM llm_token_prices p2
    WHERE p2.llm_id = ${o.llm} AND ((p2.pricing_level = 'project' AND p2.pricing_level_id = ${o.project}) OR p2.pricing_level = 'default')
    ORDER BY p2.effective_date > ${o.at}, p2.pricing_level <> 'project', p2.effective_date DESC LIMIT 1)`;

/** What a call's usage cost, each model priced at the call's start. */
export const callCostSql = (calls: string) =>
  `(SELECT sum(${promptTokensSql('u.value')} * p.prompt_token_cost + ${completionTokensSql('u.value')} * p.completion_token_cost)
    FROM ${usageEntriesSql(`${calls}.summary`)}
    JOIN llm_token_prices p ON p.id = ${pickPriceSql({ llm: 'u.key', project: `${calls}.project_id`, at: `${calls}.started_at` })}
    WHERE ${USAGE_ENTRY_WHERE})`;

/**
 * What a thread's usage cost, from `thread_usage` (tokens per model, summed over its turns).
 * Each model is priced at the thread's start: one price per thread and model keeps sorting
 * 20,000 threads by cost a small indexed walk. It differs from the sum of the turns' own
 * costs only when a model's price changed while the thread was running.
 */
export const threadCostSql = (stats: string) =>
  `(SELECT sum(tu.prompt_tokens * p.prompt_token_cost + tu.completion_tokens * p.completion_token_cost)
    FROM thread_usage tu
    JOIN llm_token_prices p ON p.id = ${pickPriceSql({ llm: 'tu.model', project: `${stats}.project_id`, at: `${stats}.start_time` })}
    WHERE tu.project_id = ${stats}.project_id AND tu.thread_id = ${stats}.thread_id)`;
