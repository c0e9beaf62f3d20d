/**
 * `/weft/trace/outline`: one trace as a tree of light spans with rollups per subtree, read
 * without inputs or outputs (docs/trace-outline.md).
 *
 * The spans come through the ordinary call query (filter by trace id, so the trace index is
 * used on both backends; only the tree's columns are read), with `summary.weave` and costs as
 * every other read computes them. Token and cost rollups count each model's deepest usage only:
 * the SDKs add a call's usage into its ancestors' summaries, so summing every span would count
 * an LLM call once per ancestor (the trace header has always counted this way).
 */
import type { CallSchema } from '../../../contract/calls.js';
import {
  MAX_OUTLINE_SPANS,
  type OutlineModelUsage,
  type OutlineSpan,
  type TraceOutlineReq,
  type TraceOutlineRes,
} from '../../../contract/traceOutline.js';
import type { Store } from '../../store/Store.js';
import { queryCalls } from './callsQuery.js';

/** What the tree needs of a call; `summary` carries usage, status counts and (priced) costs. */
export const OUTLINE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception', 'summary'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** One model's usage on one call. */
interface ModelShare {
  requests: number;
  prompt: number;
  completion: number;
  total: number;
  /** Null when the model has no price. */
  cost: number | null;
}

/** A call's usage per model, from the `summary.weave` the read computed. */
function sharesOf(call: CallSchema): Map<string, ModelShare> {
  const weave = isObj(call.summary?.weave) ? (call.summary.weave as Obj) : {};
  const tokens = isObj(weave.model_tokens) ? weave.model_tokens : {};
  const costs = isObj(weave.costs) ? weave.costs : {};
  const shares = new Map<string, ModelShare>();
  for (const [model, t] of Object.entries(tokens)) {
    if (!isObj(t)) continue;
    const c = costs[model];
    shares.set(model, {
      requests: num(t.requests),
      prompt: num(t.input_tokens),
      completion: num(t.output_tokens),
      total: num(t.total_tokens),
      cost: isObj(c) ? num(c.prompt_tokens_total_cost) + num(c.completion_tokens_total_cost) : null,
    });
  }
  return shares;
}

const addCost = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : a + b);

interface Node {
  call: CallSchema;
  shares: Map<string, ModelShare>;
  children: Node[];
  parentInTrace: boolean;
}

/**
 * Nodes parent-first (pre-order). A parent missing from the trace, or a parent_id cycle, makes
 * the first span of it a root: every span is answered once and the walk always ends.
 */
function preOrder(nodes: Node[], byId: Map<string, Node>): Node[] {
  const order: Node[] = [];
  const seen = new Set<Node>();
  const walk = (root: Node) => {
    const stack = [root];
    while (stack.length) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      order.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) if (!seen.has(node.children[i]!)) stack.push(node.children[i]!);
    }
  };
  for (const node of nodes) {
    const parent = node.call.parent_id === null ? undefined : byId.get(node.call.parent_id);
    if (parent && parent !== node) {
      parent.children.push(node);
      node.parentInTrace = true;
    }
  }
  for (const node of nodes) if (!node.parentInTrace) walk(node);
  // Whatever is left sits on a cycle: cut it at its earliest span.
  for (const node of nodes) {
    if (seen.has(node)) continue;
    node.parentInTrace = false;
    walk(node);
  }
  return order;
}

/** The outline of one trace. */
export async function traceOutline(store: Store, req: TraceOutlineReq): Promise<TraceOutlineRes> {
  const limit = req.limit ?? MAX_OUTLINE_SPANS;
  const calls: CallSchema[] = [];
  // No sort_by: a list of trace ids then reads by the trace index in start order (a sort by
  // started_at asked for explicitly would walk the project's start index instead).
  const rows = queryCalls(store, {
    project_id: req.project_id,
    filter: { trace_ids: [req.trace_id] },
    columns: OUTLINE_COLUMNS,
    include_costs: true,
    limit: limit + 1,
  });
  for await (const call of rows) calls.push(call);
  const truncated = calls.length > limit;
  if (truncated) calls.length = limit;

  const nodes: Node[] = calls.map((call) => ({ call, shares: sharesOf(call), children: [], parentInTrace: false }));
  const byId = new Map(nodes.map((n) => [n.call.id, n]));
  const order = preOrder(nodes, byId);

  // Bottom-up (reverse pre-order: children before parents): the models used below each span,
  // its counted usage (models nobody below it used) and the subtree totals.
  const below = new Map<Node, Set<string>>();
  const rollups = new Map<Node, OutlineSpan['rollup']>();
  const models = new Map<string, ModelShare>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    const usedBelow = new Set<string>();
    const rollup = { descendants: 0, errors: node.call.exception != null ? 1 : 0, tokens: 0, cost: null as number | null };
    for (const child of node.children) {
      if (!child.parentInTrace) continue;
      for (const m of below.get(child)!) usedBelow.add(m);
      for (const m of child.shares.keys()) usedBelow.add(m);
      const r = rollups.get(child)!;
      rollup.descendants += r.descendants + 1;
      rollup.errors += r.errors;
      rollup.tokens += r.tokens;
      rollup.cost = addCost(rollup.cost, r.cost);
    }
    for (const [model, share] of node.shares) {
      if (usedBelow.has(model)) continue;
      rollup.tokens += share.total;
      rollup.cost = addCost(rollup.cost, share.cost);
      const total = models.get(model) ?? { requests: 0, prompt: 0, completion: 0, total: 0, cost: null };
      total.requests += share.requests;
      total.prompt += share.prompt;
      total.completion += share.completion;
      total.total += share.total;
      total.cost = addCost(total.cost, share.cost);
      models.set(model, total);
    }
    below.set(node, usedBelow);
    rollups.set(node, rollup);
  }

  const spans: OutlineSpan[] = order.map((node) => {
    const { call } = node;
    const weave = isObj(call.summary?.weave) ? (call.summary.weave as Obj) : {};
    let cost: number | null = null;
    for (const share of node.shares.values()) cost = addCost(cost, share.cost);
    return {
      id: call.id,
      parent_id: node.parentInTrace ? call.parent_id : null,
      op_name: call.op_name,
      display_name: call.display_name,
      status: typeof weave.status === 'string' ? weave.status : 'success',
      error: call.exception != null,
      started_at: call.started_at,
      ended_at: call.ended_at,
      latency_ms: typeof weave.latency_ms === 'number' ? weave.latency_ms : null,
      tokens: typeof weave.total_tokens === 'number' ? weave.total_tokens : null,
      cost,
      rollup: rollups.get(node)!,
    };
  });
  const usage: OutlineModelUsage[] = [...models]
    .map(([model, t]) => ({
      model,
      requests: t.requests,
      prompt_tokens: t.prompt,
      completion_tokens: t.completion,
      total_tokens: t.total,
      cost: t.cost,
    }))
    .sort((a, b) => b.total_tokens - a.total_tokens || a.model.localeCompare(b.model));
  return { trace_id: req.trace_id, spans, truncated, models: usage };
}
