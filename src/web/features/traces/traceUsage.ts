/**
 * Token and cost totals of a whole trace, per model, from its calls' per-model token counts as
 * the server computed them (`summary.weave.model_tokens`, the one usage rule) and
 * `summary.weave.costs` (the trace is read with `include_costs`). Only the choice of which
 * calls count is made here.
 *
 * The SDKs add each call's usage into its ancestors' summaries when calls end (the Python and
 * TypeScript clients both do), so summing every call would count an LLM call once per
 * ancestor. A call's usage of a model therefore counts only when no call below it used that
 * model too: the deepest usage wins. Traces written without roll-up (OTel spans, the raw API)
 * usually carry usage only on the LLM calls, which are leaves, so they add up the same way.
 */
import { callModelTokens, type Call, type TokenTotals } from '../../entities/calls/callFields.js';

/** Totals for one model, or for the whole trace. `cost` is null when no call of it was priced. */
export interface UsageTotals {
  requests: number;
  prompt: number;
  completion: number;
  total: number;
  cost: number | null;
}

/** Per-model totals (most tokens first) and their sum. */
export interface TraceUsage {
  models: (UsageTotals & { model: string })[];
  total: UsageTotals;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const empty = (): UsageTotals => ({ requests: 0, prompt: 0, completion: 0, total: 0, cost: null });

const costsOf = (call: Call): Obj => {
  const weave = call.summary?.weave;
  return isObj(weave) && isObj(weave.costs) ? weave.costs : {};
};

function add(into: UsageTotals, tokens: TokenTotals, cost: Obj | null): void {
  into.requests += tokens.requests;
  into.prompt += tokens.prompt;
  into.completion += tokens.completion;
  into.total += tokens.total;
  if (cost) into.cost = (into.cost ?? 0) + num(cost.prompt_tokens_total_cost) + num(cost.completion_tokens_total_cost);
}

/** The trace's usage per model, counting each model's deepest usage only (see above). */
export function traceUsage(calls: readonly Call[]): TraceUsage {
  const byId = new Map(calls.map((c) => [c.id, c]));
  // "<call id> <model>" for every call with a descendant that used the model.
  const covered = new Set<string>();
  const tokensOf = new Map(calls.map((c) => [c.id, callModelTokens(c)]));
  for (const call of calls) {
    for (const model of Object.keys(tokensOf.get(call.id)!)) {
      let parentId = call.parent_id;
      const seen = new Set<string>();
      while (parentId && byId.has(parentId) && !seen.has(parentId)) {
        const key = `${parentId} ${model}`;
        if (covered.has(key)) break;
        covered.add(key);
        seen.add(parentId);
        parentId = byId.get(parentId)!.parent_id;
      }
    }
  }
  const models = new Map<string, UsageTotals>();
  for (const call of calls) {
    const costs = costsOf(call);
    for (const [model, tokens] of Object.entries(tokensOf.get(call.id)!)) {
      if (covered.has(`${call.id} ${model}`)) continue;
      const totals = models.get(model) ?? empty();
      add(totals, tokens, isObj(costs[model]) ? (costs[model] as Obj) : null);
      models.set(model, totals);
    }
  }
  const total = empty();
  for (const t of models.values()) {
    total.requests += t.requests;
    total.prompt += t.prompt;
    total.completion += t.completion;
    total.total += t.total;
    if (t.cost !== null) total.cost = (total.cost ?? 0) + t.cost;
  }
  const list = [...models].map(([model, t]) => ({ model, ...t })).sort((a, b) => b.total - a.total || a.model.localeCompare(b.model));
  return { models: list, total };
}
