/**
 * What threads cost, as ClickHouse SQL over a thread's aggregated usage: each model's tokens
 * (summed over the thread's turns, by the one usage rule) priced at the thread's start with the
 * price core/pickPrice.ts would pick (in force at the start first, then the project's own price
 * over the default list, then the newest), NULL when none of its models has a price. The same
 * rule as SQLite's `threadCostSql`; over a date range both the turns and the start are the ones
 * inside it.
 *
 * The prices of the project and the default list are one sorted array, read once per query by
 * a scalar sub-query (a few dozen rows), so pricing a thread is a scan of that small array per
 * model rather than a join.
 */

/** `WITH` item binding `prices`: (llm_id, effective_date, prompt cost, completion cost), project's own first, newest first. */
export const PRICES_SQL = `(SELECT arrayMap(x -> (x.1, x.4, x.5, x.6),
    arraySort(groupArray((llm_id, pricing_level != 'project', -effective_date, effective_date, prompt_token_cost, completion_token_cost))))
  FROM llm_token_prices FINAL
  WHERE pricing_level_id IN ({p:String}, 'default')
    AND ((pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default'))) AS prices`;

/**
 * A thread's cost from `usage`, the tuple of arrays (models, prompt tokens, completion tokens, …)
 * that `sumMap` gives, priced at `start` (epoch µs). Needs `prices` (PRICES_SQL) in scope.
 */
export function threadCostSql(usage: string, start: string): string {
  // In sorted order the first price of the model in force at the start is the one pickPrice
  // picks; when none is in force, the first of the model at all.
  const inForce = `arrayMap(m -> arrayFirstIndex(x -> x.1 = m AND x.2 <= ${start}, prices), ${usage}.1)`;
  const any = `arrayMap(m -> arrayFirstIndex(x -> x.1 = m, prices), ${usage}.1)`;
  const costs = `arrayMap((i, j, pt, ct) -> if(i > 0, pt * prices[i].3 + ct * prices[i].4, if(j > 0, pt * prices[j].3 + ct * prices[j].4, NULL)),
    ${inForce}, ${any}, ${usage}.2, ${usage}.3)`;
  // sumOrNull skips the unpriced models and is NULL when there is no priced one.
  return `arrayReduce('sumOrNull', ${costs})`;
}
