/**
 * Deterministic demo traces of an LLM agent, as `/call/upsert_batch` items.
 *
 * Each trace is `agent.run` → `plan` → LLM calls (`openai.chat.completions.create` or
 * `anthropic.messages.create`) and the tool calls they ask for (`tool.search_web`,
 * `tool.run_sql`). A few percent of leaf calls fail with a Python traceback (about 5% of all
 * calls end in error); the agent either retries or recovers (ancestors end fine and count the
 * error in `summary.status_counts`) or gives up (the exception propagates to `plan` and the root).
 * Ancestors' `summary.usage` and `status_counts` are the sums over their subtree, as the
 * Weave SDK computes them. About a third of the traces are turns of 3–4 turn conversations:
 * they share a `thread_id`, and every call of a turn carries `turn_id` = the turn root's id.
 *
 * The same options give the same items, ids included. Items come in time order (every start
 * before its end, parents before children), so any batching of them is a valid upload.
 */
import type { z } from 'zod';
import type { CallBatchItem } from '../../contract/calls.js';
import { pickScenario, tracebackFor, verificationSearch, type Scenario, type ToolRun } from './demoScenarios.js';
import {
  estimateUsage,
  llmInputs,
  llmOutput,
  toolCallId,
  type LlmReply,
  type LlmRequest,
  type LlmUsage,
  type Provider,
  type ToolExchange,
} from './llmPayloads.js';
import { createRng, type Rng } from './seededRandom.js';

export interface GenerateDemoOptions {
  /** `<entity>/<project>` every call is written to. */
  projectId: string;
  /** Number of root traces (conversation turns count one each). */
  traces: number;
  seed?: number;
  /** Calls spread over the 7 days before this instant (ms since epoch). */
  now?: number;
}

export type DemoBatchItem = z.input<typeof CallBatchItem>;

const DAY_MS = 24 * 60 * 60 * 1000;
const LEAF_FAILURE = { llm: 0.035, tool: 0.05 };
const MODELS: Record<Provider, string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini'],
  anthropic: ['claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022'],
};
const OP: Record<Provider, string> = { openai: 'openai.chat.completions.create', anthropic: 'anthropic.messages.create' };

interface DemoCall {
  id: string;
  parentId: string | null;
  opName: string;
  displayName: string | null;
  startMs: number;
  endMs: number;
  inputs: Record<string, unknown>;
  output: unknown;
  exception: string | null;
  /** Usage reported by this call itself (LLM calls only). */
  usage: Record<string, LlmUsage>;
  children: DemoCall[];
}

/** What stays the same for every call of one trace. */
interface TraceContext {
  rng: Rng;
  traceId: string;
  threadId: string | null;
  attributes: Record<string, unknown>;
  /** The simulated clock, in ms: each call starts where the previous step left it. */
  clock: number;
}

/** Generates `traces` root traces as start/end items for `/call/upsert_batch`, in time order. */
export function generateDemoCalls(options: GenerateDemoOptions): DemoBatchItem[] {
  const rng = createRng(options.seed ?? 1);
  const now = options.now ?? Date.now();
  const items: { at: number; item: DemoBatchItem }[] = [];
  for (let made = 0; made < options.traces;) {
    const left = options.traces - made;
    // Every scenario has three or four follow-ups, so a conversation is 3–4 turns and never repeats a question.
    const turns = left >= 3 && rng.chance(0.12) ? Math.min(left, rng.int(3, 4)) : 1;
    // Conversations last under an hour, so starting an hour before `now` keeps all in the past.
    const start = now - 7 * DAY_MS + rng.next() * (7 * DAY_MS - 60 * 60 * 1000);
    for (const root of conversation(rng, start, turns)) flatten(options.projectId, root.ctx, root.call, items);
    made += turns;
  }
  // A stable sort keeps the per-trace order (start before end, parent before child) on ties.
  return items.sort((a, b) => a.at - b.at).map((e) => e.item);
}

function conversation(rng: Rng, startMs: number, turns: number): { ctx: TraceContext; call: DemoCall }[] {
  const attributes = {
    weave: {
      client_version: rng.pick(['0.51.56', '0.52.1', '0.52.3']),
      os_name: rng.pick(['Linux', 'Linux', 'Darwin']),
      sys_version: '3.11.9',
    },
    env: rng.chance(0.8) ? 'prod' : 'staging',
    user_id: `user_${String(rng.int(1, 40)).padStart(3, '0')}`,
  };
  const provider: Provider = rng.chance(0.7) ? 'openai' : 'anthropic';
  const threadId = turns > 1 ? rng.uuidv7(startMs) : null;
  const history: LlmRequest['history'] = [];
  const base = pickScenario(rng);
  const out: { ctx: TraceContext; call: DemoCall }[] = [];
  let clock = startMs;
  for (let turn = 0; turn < turns; turn++) {
    // Later turns ask the opening question's follow-ups, each with its own tools and an answer to it.
    const followUp = turn === 0 ? null : base.followUps[(turn - 1) % base.followUps.length]!;
    const scenario = followUp ? { ...base, ...followUp } : base;
    const ctx: TraceContext = { rng, traceId: rng.uuidv7(clock), threadId, attributes, clock };
    const call = agentRun(ctx, { scenario, provider, model: rng.pick(MODELS[provider]), history: [...history] });
    out.push({ ctx, call });
    history.push({ role: 'user', content: scenario.question }, { role: 'assistant', content: scenario.answer });
    clock = call.endMs + rng.int(10_000, 240_000);
  }
  return out;
}

interface TurnPlan {
  scenario: Scenario;
  provider: Provider;
  model: string;
  history: LlmRequest['history'];
}

function agentRun(ctx: TraceContext, plan: TurnPlan): DemoCall {
  const { rng } = ctx;
  const { scenario, provider, model, history } = plan;
  const root = open(
    ctx,
    null,
    'agent.run',
    { question: scenario.question, user_id: ctx.attributes.user_id },
    rng.chance(0.25) ? `copilot: ${scenario.topic}` : null,
  );
  const planCall = open(ctx, root, 'plan', { question: scenario.question, tools: ['search_web', 'run_sql'] });
  const request = (exchanges: ToolExchange[]): LlmRequest => ({ provider, model, history, question: scenario.question, exchanges });
  const exchanges: ToolExchange[] = [];
  let failure: string | null = null;
  const runs = rng.chance(0.35) ? [...scenario.tools, verificationSearch(rng, scenario)] : scenario.tools;
  for (const run of runs) {
    const toolCall = { id: toolCallId(rng, provider), run };
    failure = llmWithRetry(ctx, planCall, request([...exchanges]), { toolCall });
    if (failure) break;
    const tool = toolStep(ctx, planCall, run);
    if (tool.exception) {
      // Recovering means telling the model what went wrong and carrying on without the data.
      if (rng.chance(0.5)) {
        failure = tool.exception;
        break;
      }
      exchanges.push({ id: toolCall.id, run: { ...run, result: { error: tool.exception.split('\n').at(-1) } } });
    } else {
      exchanges.push(toolCall);
    }
  }
  if (!failure) failure = llmWithRetry(ctx, planCall, request(exchanges), { text: scenario.answer });
  close(ctx, planCall, failure ? null : { steps: runs.map((t) => t.tool), answer: scenario.answer }, failure);
  close(ctx, root, failure ? null : { answer: scenario.answer }, failure);
  return root;
}

/** One LLM call, retried once when it fails and the agent decides to; the failure if it gives up. */
function llmWithRetry(ctx: TraceContext, parent: DemoCall, req: LlmRequest, reply: LlmReply): string | null {
  const first = llmStep(ctx, parent, req, reply);
  if (!first.exception) return null;
  if (ctx.rng.chance(0.5)) return first.exception;
  return llmStep(ctx, parent, req, reply).exception;
}

function llmStep(ctx: TraceContext, parent: DemoCall, req: LlmRequest, reply: LlmReply): DemoCall {
  const { rng } = ctx;
  const inputs = llmInputs(req);
  const call = open(ctx, parent, OP[req.provider], inputs, rng.chance(0.1) ? ('text' in reply ? 'final answer' : 'choose tool') : null);
  if (rng.chance(LEAF_FAILURE.llm)) {
    ctx.clock += Math.round(rng.logRange(300, 8000));
    close(ctx, call, null, tracebackFor(rng, req.provider));
    return call;
  }
  const usage = estimateUsage(inputs, reply);
  // Generation time grows with the tokens produced; the clamp keeps it in a believable range.
  ctx.clock += Math.round(Math.min(8000, Math.max(300, 200 + usage.completion_tokens * rng.range(15, 45) + usage.prompt_tokens * 0.05)));
  call.usage = { [req.model]: usage };
  close(ctx, call, llmOutput({ rng, provider: req.provider, model: req.model, createdMs: call.startMs, reply, usage }), null);
  return call;
}

function toolStep(ctx: TraceContext, parent: DemoCall, run: ToolRun): DemoCall {
  const { rng } = ctx;
  const call = open(ctx, parent, `tool.${run.tool}`, run.args);
  ctx.clock += Math.round(run.tool === 'run_sql' ? rng.logRange(20, 3000) : rng.logRange(150, 2500));
  const failed = rng.chance(LEAF_FAILURE.tool);
  close(ctx, call, failed ? null : run.result, failed ? tracebackFor(rng, run.tool) : null);
  return call;
}

function open(
  ctx: TraceContext,
  parent: DemoCall | null,
  opName: string,
  inputs: Record<string, unknown>,
  displayName: string | null = null,
): DemoCall {
  ctx.clock += ctx.rng.int(1, 25);
  const call: DemoCall = {
    id: ctx.rng.uuidv7(ctx.clock),
    parentId: parent?.id ?? null,
    opName,
    displayName,
    startMs: ctx.clock,
    endMs: ctx.clock,
    inputs,
    output: null,
    exception: null,
    usage: {},
    children: [],
  };
  parent?.children.push(call);
  return call;
}

function close(ctx: TraceContext, call: DemoCall, output: unknown, exception: string | null): void {
  ctx.clock += ctx.rng.int(1, 10);
  call.endMs = ctx.clock;
  call.output = output;
  call.exception = exception;
}

/** Start and end items of a call tree, in the order things happened. */
function flatten(projectId: string, ctx: TraceContext, root: DemoCall, out: { at: number; item: DemoBatchItem }[]): void {
  // turn_id: every call of a thread turn points at the turn's root, as the Weave SDK sets it.
  const turnId = ctx.threadId ? root.id : null;
  const visit = (call: DemoCall): void => {
    out.push({
      at: call.startMs,
      item: {
        mode: 'start',
        req: {
          start: {
            project_id: projectId,
            id: call.id,
            trace_id: ctx.traceId,
            parent_id: call.parentId,
            op_name: call.opName,
            display_name: call.displayName,
            thread_id: ctx.threadId,
            turn_id: turnId,
            started_at: new Date(call.startMs).toISOString(),
            attributes: ctx.attributes,
            inputs: call.inputs,
          },
        },
      },
    });
    call.children.forEach(visit);
    const ended = {
      project_id: projectId,
      id: call.id,
      ended_at: new Date(call.endMs).toISOString(),
      exception: call.exception,
      output: call.output,
      summary: summarize(call),
    };
    out.push({ at: call.endMs, item: { mode: 'end', req: { end: ended } } });
  };
  visit(root);
}

/** `usage` and `status_counts` summed over the call and everything below it. */
function summarize(call: DemoCall): { usage?: Record<string, LlmUsage>; status_counts: { success: number; error: number } } {
  const usage: Record<string, LlmUsage> = {};
  const counts = { success: 0, error: 0 };
  const walk = (c: DemoCall) => {
    for (const [model, u] of Object.entries(c.usage)) {
      const sum = (usage[model] ??= { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, requests: 0 });
      sum.prompt_tokens += u.prompt_tokens;
      sum.completion_tokens += u.completion_tokens;
      sum.total_tokens += u.total_tokens;
      sum.requests += u.requests;
    }
    counts[c.exception ? 'error' : 'success'] += 1;
    c.children.forEach(walk);
  };
  walk(call);
  return Object.keys(usage).length ? { usage, status_counts: counts } : { status_counts: counts };
}
