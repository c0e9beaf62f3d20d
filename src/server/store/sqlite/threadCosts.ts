/**
 * A thread's cost for sorting and bounding every matching thread by it, in SQL: its tokens
 * per model (`thread_usage`) times the price each model has at the thread's start, the same
 * rule and arithmetic as `threadCostSql` (usageSql.ts), but without its price sub-query per
 * thread and model.
 *
 * Which price applies depends on the thread's start only through which prices are in force
 * (pickPrice ranks in force first, then project over default, then newest), so for one model it
 * is constant between two consecutive effective dates. Those spans are resolved here, once per
 * request, with pickPrice itself, and bound as one JSON parameter of (model, from, to, price id)
 * rows; SQL finds a thread's span by its start and reads the price's costs by id.
 */
import { pickPrice } from '../../core/pickPrice.js';
import type { PriceRecord } from '../CostsStore.js';
import { pricesFor } from './costs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** [model, first start (inclusive), last start (exclusive), price id] */
export type PriceSpan = [string, number, number, string];

/** The price spans of every model in `prices`, as pickPrice chooses for `projectId`. */
export function priceSpans(prices: PriceRecord[], projectId: string): PriceSpan[] {
  const byModel = new Map<string, PriceRecord[]>();
  for (const p of prices) byModel.set(p.llmId, [...(byModel.get(p.llmId) ?? []), p]);
  const spans: PriceSpan[] = [];
  for (const [llmId, list] of byModel) {
    const dates = [...new Set(list.map((p) => p.effectiveDate))].sort((a, b) => a - b);
    // Before the first effective date none is in force; from each date on, the ones up to it are.
    const bounds = [Number.MIN_SAFE_INTEGER, ...dates, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const [from, to] = [bounds[i]!, bounds[i + 1]!];
      const price = pickPrice({ prices: list, llmId, startedAt: from === Number.MIN_SAFE_INTEGER ? to - 1 : from, projectId });
      if (price) spans.push([llmId, from, to, price.id]);
    }
  }
  return spans;
}

/**
 * The price spans of the models used in a project's threads, and the SQL of a thread's cost
 * over thread_stats `stats` that reads them from the CTE `thread_price_spans` (prefix the
 * query with `with`, whose one parameter is `param`). NULL when none of its models has a price.
 */
export function threadCostBySpans(db: SqliteDatabase, projectId: string, stats: string): { with: string; param: string; cost: string } {
  const models = db.all<{ model: string }>('SELECT DISTINCT model FROM thread_usage WHERE project_id = ?', [projectId]).map((r) => r.model);
  const spans = priceSpans(pricesFor(db, { projectId, llmIds: models }), projectId);
  return {
    // Materialized once: the JSON is read once, not once per thread.
    with: `WITH thread_price_spans(model, start_from, start_to, price_id) AS MATERIALIZED (
      SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
      FROM json_each(?))`,
    param: JSON.stringify(spans),
    cost: `(SELECT sum(tu.prompt_tokens * p.prompt_token_cost + tu.completion_tokens * p.completion_token_cost)
      FROM thread_usage tu
      JOIN thread_price_spans sp ON sp.model = tu.model AND ${stats}.start_time >= sp.start_from AND ${stats}.start_time < sp.start_to
      JOIN llm_token_prices p ON p.id = sp.price_id
      WHERE tu.project_id = ${stats}.project_id AND tu.thread_id = ${stats}.thread_id)`,
  };
}
