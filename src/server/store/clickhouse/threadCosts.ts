/**
 * What threads cost, as ClickHouse SQL over a thread's aggregated usage: each model's tokens
 * (summed over the thread's turns, by the one usage rule) priced at the thread's start with the
 * price core/pickPrice.ts would pick (in force at the start first, then the project's own price
 * over the default list, then the newest), NULL when none of its models has a price. The same
 * rule as SQLite's `threadCostSql`; over a date range both the turns and the start are the ones
 * inside it.
 *
 * The prices of the project and the default list are one map from model to its prices, ranked
 * (project's own first, newest first), read once per query by a scalar sub-query (a few dozen
 * rows). Pricing a thread looks up each of its models and scans only that model's few prices;
 * scanning the whole list per model (the earlier form) copied it for every thread and was most
 * of a cost sort's time (20k threads: 220-350 ms of engine CPU, now about 20).
 */

/** `WITH` item binding `prices`: model → [(effective_date, prompt cost, completion cost)], project's own first, newest first. */
export const PRICES_SQL = `(SELECT CAST((groupArray(llm_id), groupArray(ranked)), 'Map(String, Array(Tuple(Int64, Float64, Float64)))')
  FROM (SELECT llm_id, arrayMap(x -> (x.3, x.4, x.5),
      arraySort(groupArray((pricing_level != 'project', -effective_date, effective_date, prompt_token_cost, completion_token_cost)))) AS ranked
    FROM llm_token_prices FINAL
    WHERE pricing_level_id IN ({p:String}, 'default')
      AND ((pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default'))
    GROUP BY llm_id)) AS prices`;

/**
 * A thread's cost from `usage`, the tuple of arrays (models, prompt tokens, completion tokens, …)
 * that `sumMap` gives, priced at `start` (epoch µs). Needs `prices` (PRICES_SQL) in scope.
 */
export function threadCostSql(usage: string, start: string): string {
  // In ranked order the first price of the model in force at the start is the one pickPrice
  // picks; when none is in force, the model's first price (index 1); a model without prices
  // has an empty list and no cost.
  const pick = `greatest(arrayFirstIndex(x -> x.1 <= ${start}, c), 1)`;
  const costs = `arrayMap((c, pt, ct) -> if(empty(c), NULL, pt * c[${pick}].2 + ct * c[${pick}].3),
    arrayMap(m -> prices[m], ${usage}.1), ${usage}.2, ${usage}.3)`;
  // sumOrNull skips the unpriced models and is NULL when there is no priced one.
  return `arrayReduce('sumOrNull', ${costs})`;
}
