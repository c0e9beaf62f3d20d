/**
 * What threads cost, as ClickHouse SQL: each thread's usage per model (summed over its turns,
 * by the one usage rule) priced at the thread's start, with the price core/pickPrice.ts would
 * pick (in force at the start first, then the project's own price over the default list, then
 * the newest), NULL when none of its models has a price. The same rule as SQLite's
 * `threadCostSql`; over a date range both the turns and the start are the ones inside it.
 */
import { ENTRY_INPUT_TOKENS, ENTRY_OUTPUT_TOKENS, USAGE_ENTRIES, USAGE_ENTRY_IS_OBJECT } from './usageSql.js';

/**
 * `SELECT thread_id, total_cost` of the threads whose turns match `turnsWhere` (a condition over
 * `calls FINAL` that binds the project as `{p:String}`); threads without any priced model are absent.
 */
export function threadCostsSql(turnsWhere: string): string {
  return `SELECT thread_id, sum(cost) AS total_cost FROM (
      SELECT us.thread_id AS thread_id, us.model AS model,
        argMin(us.prompt * pr.prompt_token_cost + us.completion * pr.completion_token_cost,
          (pr.effective_date > st.start_time, pr.pricing_level != 'project', -pr.effective_date)) AS cost
      FROM (
        SELECT thread_id, u.1 AS model, sum(${ENTRY_INPUT_TOKENS}) AS prompt, sum(${ENTRY_OUTPUT_TOKENS}) AS completion
        FROM (SELECT thread_id, arrayJoin(${USAGE_ENTRIES}) AS u FROM calls FINAL WHERE ${turnsWhere})
        WHERE ${USAGE_ENTRY_IS_OBJECT}
        GROUP BY thread_id, model
      ) AS us
      INNER JOIN (SELECT thread_id, min(started_at) AS start_time FROM calls FINAL WHERE ${turnsWhere} GROUP BY thread_id) AS st
        ON st.thread_id = us.thread_id
      INNER JOIN (
        SELECT llm_id, pricing_level, effective_date, prompt_token_cost, completion_token_cost FROM llm_token_prices FINAL
        WHERE (pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default')
      ) AS pr ON pr.llm_id = us.model
      GROUP BY thread_id, model
    ) GROUP BY thread_id`;
}
