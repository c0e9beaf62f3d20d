/**
 * `/weft/trace/outline`: one trace as a tree of light spans with rollups per subtree, read
 * without inputs or outputs (docs/trace-outline.md).
 *
 * The store answers the tree's columns only (CallsStore.traceSpans: the trace index on both
 * backends, covering on SQLite); status, latency, tokens and costs follow the rules every call
 * read follows (withWeaveSummary, core/usage.ts, include_costs' prices), computed here from the
 * summary without building whole calls. Token and cost rollups count each model's deepest usage
 * only: the SDKs add a call's usage into its ancestors' summaries, so summing every span would
 * count an LLM call once per ancestor (the trace header has always counted this way).
 */
import {
  MAX_OUTLINE_SPANS,
  OUTLINE_LARGE_TRACE,
  OUTLINE_OPEN_DEPTH,
  type OutlineModelUsage,
  type OutlineRollup,
  type OutlineSpan,
  type TraceOutlineLine,
  type TraceOutlineReq,
  type TraceOutlineRes,
} from '../../../contract/traceOutline.js';
import { formatMicros } from '../../core/datetime.js';
import { usageEntriesOf } from '../../core/usage.js';
import type { Store, TraceSpanRecord } from '../../store/Store.js';
import { costsForUsage, type Usage } from '../stats/costs.js';

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

function parseSummary(json: string | null): Obj {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
}

/** `summary.weave.status` as every call read computes it (withWeaveSummary, domain/calls/calls.ts). */
function statusOf(span: TraceSpanRecord, summary: Obj): string {
  if (span.error) return 'error';
  if (span.endedAt === null) return 'running';
  const counts = summary.status_counts;
  return isObj(counts) && num(counts.error) > 0 ? 'descendant_error' : 'success';
}

const addCost = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : a + b);

/** Every node's rollup until the bottom-up pass sets it. */
const NO_ROLLUP: OutlineRollup = { descendants: 0, errors: 0, tokens: 0, cost: null };
/**
 * Shared by every span without usage, and the models below a span nothing below used: most
 * spans of an agent trace are tools. Never written to (10,000 empty maps and sets were a third
 * of the outline's garbage).
 */
const NO_SHARES: ReadonlyMap<string, ModelShare> = new Map();
const NONE_BELOW: ReadonlySet<string> = new Set();
const NO_USAGE: Record<string, Usage> = Object.freeze({});

interface Node {
  span: TraceSpanRecord;
  summary: Obj;
  shares: ReadonlyMap<string, ModelShare>;
  /** The models used below this span (set by the bottom-up pass). */
  below: ReadonlySet<string>;
  children: Node[];
  parentInTrace: boolean;
  /** 0 for a root. */
  depth: number;
  rollup: OutlineRollup;
}

/**
 * Nodes parent-first (pre-order). A parent missing from the trace, or a parent_id cycle, makes
 * the first span of it a root: every span is answered once and the walk always ends.
 */
function preOrder(nodes: Node[], byId: Map<string, Node>): Node[] {
  const order: Node[] = [];
  const seen = new Set<Node>();
  const walk = (root: Node) => {
    root.depth = 0;
    const stack = [root];
    while (stack.length) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      order.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) {
        const child = node.children[i]!;
        if (seen.has(child)) continue;
        child.depth = node.depth + 1;
        stack.push(child);
      }
    }
  };
  for (const node of nodes) {
    const parent = node.span.parentId === null ? undefined : byId.get(node.span.parentId);
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

/** A call's usage per model (core/usage.ts), each priced at the price in force when it started. */
function sharesOf(usage: unknown, costs: Record<string, { prompt_tokens_total_cost: number; completion_tokens_total_cost: number }>) {
  const shares = new Map<string, ModelShare>();
  for (const e of usageEntriesOf(usage)) {
    const c = costs[e.model];
    shares.set(e.model, {
      requests: e.requests,
      prompt: e.inputTokens,
      completion: e.outputTokens,
      total: e.totalTokens,
      cost: c ? num(c.prompt_tokens_total_cost) + num(c.completion_tokens_total_cost) : null,
    });
  }
  return shares;
}

/** The trace's nodes in pre-order with their rollups, and the usage per model. */
interface Outline {
  order: Node[];
  truncated: boolean;
  models: OutlineModelUsage[];
}

async function buildOutline(store: Store, req: TraceOutlineReq): Promise<Outline> {
  const limit = req.limit ?? MAX_OUTLINE_SPANS;
  const records = await store.calls.traceSpans({ projectId: req.project_id, traceId: req.trace_id, limit: limit + 1 });
  const truncated = records.length > limit;
  if (truncated) records.length = limit;

  const summaries = records.map((r) => parseSummary(r.summaryJson));
  const usageOf = (summary: Obj): Record<string, Usage> => (isObj(summary.usage) ? (summary.usage as Record<string, Usage>) : NO_USAGE);
  const llmIds = [...new Set(summaries.flatMap((s) => Object.keys(usageOf(s))))];
  const prices = llmIds.length ? await store.costs.pricesFor({ projectId: req.project_id, llmIds }) : [];
  const nodes: Node[] = records.map((span, i) => {
    const usage = usageOf(summaries[i]!);
    let shares = NO_SHARES;
    if (usage !== NO_USAGE) {
      const costs = prices.length ? costsForUsage({ usage, prices, startedAt: span.startedAt, projectId: req.project_id }) : {};
      shares = sharesOf(usage, costs);
    }
    return { span, summary: summaries[i]!, shares, below: NONE_BELOW, children: [], parentInTrace: false, depth: 0, rollup: NO_ROLLUP };
  });
  const byId = new Map(nodes.map((n) => [n.span.id, n]));
  const order = preOrder(nodes, byId);

  // Bottom-up (reverse pre-order: children before parents): the models used below each span,
  // its counted usage (models nobody below it used) and the subtree totals.
  const models = new Map<string, ModelShare>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    let usedBelow: Set<string> | null = null;
    const rollup = { descendants: 0, errors: node.span.error ? 1 : 0, tokens: 0, cost: null as number | null };
    for (const child of node.children) {
      if (!child.parentInTrace) continue;
      if (child.below.size || child.shares.size) {
        usedBelow ??= new Set();
        for (const m of child.below) usedBelow.add(m);
        for (const m of child.shares.keys()) usedBelow.add(m);
      }
      const r = child.rollup;
      rollup.descendants += r.descendants + 1;
      rollup.errors += r.errors;
      rollup.tokens += r.tokens;
      rollup.cost = addCost(rollup.cost, r.cost);
    }
    for (const [model, share] of node.shares) {
      if (usedBelow?.has(model)) continue;
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
    if (usedBelow) node.below = usedBelow;
    node.rollup = rollup;
  }

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
  return { order, truncated, models: usage };
}

/** A node as the wire's span. */
function spanOf(node: Node): OutlineSpan {
  const { span, summary } = node;
  let cost: number | null = null;
  let tokens: number | null = null;
  for (const share of node.shares.values()) {
    cost = addCost(cost, share.cost);
    tokens = (tokens ?? 0) + share.total;
  }
  return {
    id: span.id,
    parent_id: node.parentInTrace ? span.parentId : null,
    op_name: span.opName,
    display_name: span.displayName,
    status: statusOf(span, summary),
    error: span.error,
    started_at: formatMicros(span.startedAt),
    ended_at: span.endedAt === null ? null : formatMicros(span.endedAt),
    latency_ms: span.endedAt === null ? null : Math.trunc((span.endedAt - span.startedAt) / 1000),
    tokens,
    cost,
    rollup: node.rollup,
  };
}

/** The outline of one trace, in one answer. */
export async function traceOutline(store: Store, req: TraceOutlineReq): Promise<TraceOutlineRes> {
  const { order, truncated, models } = await buildOutline(store, req);
  return { trace_id: req.trace_id, spans: order.map(spanOf), truncated, models };
}

/**
 * The outline as lines (`/weft/trace/outline_stream`): the head, then the spans, those a large
 * trace's tree shows on opening first, so the page paints its first rows before the rest has
 * come (docs/trace-outline.md "Streamed"). Each span is made as it is written.
 */
export async function* traceOutlineLines(store: Store, req: TraceOutlineReq): AsyncGenerator<TraceOutlineLine> {
  const { order, truncated, models } = await buildOutline(store, req);
  yield { head: { trace_id: req.trace_id, spans: order.length, truncated, models } };
  if (order.length <= OUTLINE_LARGE_TRACE) {
    for (const node of order) yield spanOf(node);
    return;
  }
  for (const node of order) if (node.depth <= OUTLINE_OPEN_DEPTH) yield spanOf(node);
  for (const node of order) if (node.depth > OUTLINE_OPEN_DEPTH) yield spanOf(node);
}
