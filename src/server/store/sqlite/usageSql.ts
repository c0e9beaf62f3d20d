/**
 * Token and cost expressions over `summary.usage`, as SQLite SQL, so that calls and threads
 * can be sorted and filtered by them on the server.
 *
 * Contract: the numbers match domain/costs.ts — prompt = prompt_tokens + input_tokens,
 * completion = completion_tokens + output_tokens, each model priced by the candidate
 * `pickPrice` would choose (in force at the given time first, then the project's own price
 * over the default list, then the newest). A call or thread none of whose models has a price
 * costs NULL, so it sorts after every priced one. Only fixed text goes into SQL; callers
 * pass column expressions they own, never request values.
 */

/** `summary.usage` entries that are objects (a model's usage), as json_each rows `u`. */
const usageEntries = (summary: string) => `json_each(${summary}, '$.usage') u`;

const num = (entry: string, key: string) => `coalesce(json_extract(${entry}, '$.${key}'), 0)`;

/** Prompt and completion tokens of one usage entry. */
export const promptTokensSql = (entry: string) => `(${num(entry, 'prompt_tokens')} + ${num(entry, 'input_tokens')})`;
export const completionTokensSql = (entry: string) => `(${num(entry, 'completion_tokens')} + ${num(entry, 'output_tokens')})`;

/**
 * Total tokens of a call: `total_tokens` where reported, else prompt + completion (the same
 * rule as the thread statistics). NULL when the summary has no usage.
 */
export const callTokensSql = (calls: string) =>
  `(SELECT sum(coalesce(json_extract(u.value, '$.total_tokens'), ${promptTokensSql('u.value')} + ${completionTokensSql('u.value')}))
    FROM ${usageEntries(`${calls}.summary`)} WHERE u.type = 'object')`;

/** The id of the price that applies to model `llm` for project `project` at time `at` (µs). */
export const pickPriceSql = (o: { llm: string; project: string; at: string }) =>
  `(SELECT p2.id FROM llm_token_prices p2
    WHERE p2.llm_id = ${o.llm} AND ((p2.pricing_level = 'project' AND p2.pricing_level_id = ${o.project}) OR p2.pricing_level = 'default')
    ORDER BY p2.effective_date > ${o.at}, p2.pricing_level <> 'project', p2.effective_date DESC LIMIT 1)`;

/** What a call's usage cost, each model priced at the call's start. */
export const callCostSql = (calls: string) =>
  `(SELECT sum(${promptTokensSql('u.value')} * p.prompt_token_cost + ${completionTokensSql('u.value')} * p.completion_token_cost)
    FROM ${usageEntries(`${calls}.summary`)}
    JOIN llm_token_prices p ON p.id = ${pickPriceSql({ llm: 'u.key', project: `${calls}.project_id`, at: `${calls}.started_at` })}
    WHERE u.type = 'object')`;

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
