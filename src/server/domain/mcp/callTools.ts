/**
 * MCP tools over projects, calls and traces (docs/mcp.md "Tools"): what a coding agent asks first
 * (which projects, which calls failed, what a trace did) answered from the same domain reads as
 * `/service/projects_info`, `/calls/stream_query` and `/call/read`, without payloads unless one
 * call is read, and then cut to WEFT_MCP_MAX_PAYLOAD_CHARS.
 */
import { z } from 'zod';
import type { CallSchema } from '../../../contract/calls.js';
import type { Operation } from '../../../contract/common.js';
import type { OutlineSpan } from '../../../contract/traceOutline.js';
import { formatMicrosOrNull } from '../../core/datetime.js';
import { opDisplayName } from '../../core/opNames.js';
import { NotFoundError } from '../../errors.js';
import { listVisibleProjects } from '../accounts/visibleProjects.js';
import { addCallExtras } from '../calls/callExtras.js';
import { withWeaveSummary } from '../calls/calls.js';
import { queryCalls } from '../calls/callsQuery.js';
import { traceOutline } from '../calls/traceOutline.js';
import { cappedNote, cutPayload, cutText, rowLimit } from './toolBounds.js';
import { limitArg, offsetArg, projectArg, defineTool, type ToolDef } from './toolKit.js';

/** The columns a call line needs: everything but the payloads. */
const LINE_COLUMNS = [
  'id',
  'trace_id',
  'parent_id',
  'op_name',
  'display_name',
  'started_at',
  'ended_at',
  'exception',
  'summary',
  'thread_id',
  'turn_id',
];
const STATUSES = ['success', 'error', 'running', 'descendant_error'] as const;
/** Characters of an exception shown in a line (read_call shows it whole, within the payload cut). */
const EXCEPTION_CHARS = 300;

type Weave = { status?: string; latency_ms?: number; total_tokens?: number; costs?: Record<string, Record<string, number>> };
const weaveOf = (call: CallSchema): Weave => ((call.summary as { weave?: Weave } | null)?.weave ?? {}) as Weave;

/** What a call cost, summed over its models; null when no price applies. */
function costOf(weave: Weave): number | null {
  if (!weave.costs) return null;
  let total = 0;
  for (const c of Object.values(weave.costs)) total += (c.prompt_tokens_total_cost ?? 0) + (c.completion_tokens_total_cost ?? 0);
  return total;
}

/** One call without payloads: what a listing or an outline shows. */
function callLine(call: CallSchema) {
  const weave = weaveOf(call);
  return {
    id: call.id,
    name: call.display_name || opDisplayName(call.op_name),
    op_name: call.op_name,
    status: weave.status ?? null,
    started_at: call.started_at,
    latency_ms: weave.latency_ms ?? null,
    total_tokens: weave.total_tokens ?? null,
    cost: costOf(weave),
    exception: cutText(call.exception?.split('\n', 1)[0], EXCEPTION_CHARS),
  };
}

/** `op`: a bare op name matches every version of that op in the project, and calls named so (OTel spans). */
function opNames(projectId: string, op: string): string[] {
  return op.startsWith('weave:///') ? [op] : [op, `weave:///${projectId}/op/${op}:*`];
}

/** A case-insensitive substring test over the parts of a call a person would search. */
function textCondition(text: string): Operation {
  const fields = ['op_name', 'display_name', 'inputs', 'output', 'exception', 'attributes'];
  return {
    $or: fields.map((f) => ({ $contains: { input: { $getField: f }, substr: { $literal: text }, case_insensitive: true } })),
  };
}

export const callTools: readonly ToolDef[] = [
  defineTool(
    'list_projects',
    {
      title: 'List projects',
      description: 'The projects this API key may read ("<entity>/<project>"), with their call counts and last activity.',
      input: { limit: limitArg(100) },
    },
    async (args, { store, user, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 100, limits);
      const projects = await deadline.race(listVisibleProjects(store, user));
      return {
        projects: projects.slice(0, limit).map((p) => ({
          project_id: p.projectId,
          call_count: p.callCount,
          last_activity: formatMicrosOrNull(p.lastActivity),
        })),
        total: projects.length,
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'search_calls',
    {
      title: 'Search calls',
      description:
        'Calls of a project, newest first, without their inputs and outputs: id, trace, name, status, latency, tokens, cost, first line of the exception. Filter by op, start time, status, trace, thread or text (a case-insensitive substring of the op name, display name, inputs, output, exception or attributes). Read one whole with read_call, its trace with trace_outline.',
      input: {
        project_id: projectArg,
        op: z.string().min(1).max(2048).optional().describe('Op name (every version) or op ref'),
        started_after: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; only calls that started after it'),
        started_before: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; only calls that started before it'),
        status: z.enum(STATUSES).optional().describe('error: the call raised; descendant_error: a call below it did'),
        text: z.string().min(1).max(500).optional().describe('Substring to find, any case'),
        trace_id: z.string().min(1).optional(),
        thread_id: z.string().min(1).optional(),
        roots_only: z.boolean().optional().describe('Only the root call of each trace'),
        limit: limitArg(20),
        offset: offsetArg,
      },
    },
    async (args, { store, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 20, limits);
      const conditions: Operation[] = [];
      const field = (f: string) => ({ $getField: f });
      if (args.status) conditions.push({ $eq: [field('summary.weave.status'), { $literal: args.status }] });
      if (args.started_after) conditions.push({ $gt: [field('started_at'), { $literal: args.started_after }] });
      if (args.started_before) conditions.push({ $lt: [field('started_at'), { $literal: args.started_before }] });
      if (args.text) conditions.push(textCondition(args.text));
      const rows = queryCalls(store, {
        project_id: args.project_id,
        filter: {
          ...(args.op ? { op_names: opNames(args.project_id, args.op) } : {}),
          ...(args.trace_id ? { trace_ids: [args.trace_id] } : {}),
          ...(args.thread_id ? { thread_ids: [args.thread_id] } : {}),
          ...(args.roots_only ? { trace_roots_only: true } : {}),
        },
        query: conditions.length ? { $expr: conditions.length === 1 ? conditions[0]! : { $and: conditions } } : null,
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit,
        offset: args.offset ?? 0,
        columns: LINE_COLUMNS,
        include_costs: true,
      });
      const calls = await deadline.collect(rows);
      return {
        calls: calls.map((c) => ({ ...callLine(c), trace_id: c.trace_id, parent_id: c.parent_id, thread_id: c.thread_id })),
        offset: args.offset ?? 0,
        ...(calls.length === limit ? { next_offset: (args.offset ?? 0) + limit } : {}),
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'trace_outline',
    {
      title: 'Trace outline',
      description:
        "A trace as a tree of calls, in start order, without payloads: each node's id, name, status, latency, tokens and cost, per subtree the calls, errors, tokens and cost below it (each model's usage counted once), and the trace's usage per model. Large traces are cut at the row cap (the answer says how many calls the trace has). Read one call whole with read_call.",
      input: { project_id: projectArg, trace_id: z.string().min(1), limit: limitArg(200) },
    },
    async (args, { store, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 200, limits);
      const { spans, truncated, models } = await deadline.race(
        traceOutline(store, { project_id: args.project_id, trace_id: args.trace_id, limit }),
      );
      if (spans.length === 0) throw new NotFoundError(`No calls in trace ${args.trace_id} of ${args.project_id}`);
      const total = truncated
        ? await deadline.race(store.calls.countCalls({ projectId: args.project_id, filter: { trace_ids: [args.trace_id] } }))
        : spans.length;
      return {
        trace_id: args.trace_id,
        total_calls: total,
        shown_calls: spans.length,
        ...(truncated ? { cut: `the first ${spans.length} calls by start time; raise limit to see more` } : {}),
        roots: nest(spans),
        usage: models,
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'read_call',
    {
      title: 'Read a call',
      description: `One call whole: inputs, output, exception, attributes and summary (usage, cost, status, latency). Each payload longer than the server's bound (WEFT_MCP_MAX_PAYLOAD_CHARS) is cut and marked "_truncated".`,
      input: { project_id: projectArg, call_id: z.string().min(1) },
    },
    async (args, { store, limits, deadline }) => {
      const call = await deadline.race(store.calls.readCall({ projectId: args.project_id, id: args.call_id }));
      if (!call) throw new NotFoundError(`Call ${args.call_id} not found in ${args.project_id}`);
      const [full] = await deadline.race(
        addCallExtras(store, args.project_id, [withWeaveSummary(call)], { includeCosts: true, includeFeedback: false }),
      );
      const max = limits.maxMcpPayloadChars;
      return {
        ...callLine(full!),
        trace_id: full!.trace_id,
        parent_id: full!.parent_id,
        thread_id: full!.thread_id,
        turn_id: full!.turn_id,
        ended_at: full!.ended_at,
        inputs: cutPayload(full!.inputs, max),
        output: cutPayload(full!.output, max),
        exception: cutPayload(full!.exception, max),
        attributes: cutPayload(full!.attributes, max),
        summary: cutPayload(full!.summary, max),
      };
    },
  ),
];

interface OutlineNode {
  id: string;
  name: string;
  op_name: string;
  status: string;
  started_at: string;
  latency_ms: number | null;
  total_tokens: number | null;
  cost: number | null;
  children?: OutlineNode[];
  /** This call and everything below it that was read (the outline's rollup, domain/calls/traceOutline.ts). */
  subtree?: { calls: number; errors: number; total_tokens: number; cost: number | null };
}

/** The outline's spans (in pre-order, parents first) nested: a span whose parent was not read is a root. */
function nest(spans: OutlineSpan[]): OutlineNode[] {
  const nodes = new Map<string, OutlineNode>();
  const roots: OutlineNode[] = [];
  for (const s of spans) {
    const node: OutlineNode = {
      id: s.id,
      name: s.display_name || opDisplayName(s.op_name),
      op_name: s.op_name,
      status: s.status,
      started_at: s.started_at,
      latency_ms: s.latency_ms,
      total_tokens: s.tokens,
      cost: s.cost,
    };
    if (s.rollup.descendants > 0)
      node.subtree = { calls: s.rollup.descendants + 1, errors: s.rollup.errors, total_tokens: s.rollup.tokens, cost: s.rollup.cost };
    nodes.set(s.id, node);
    const parent = s.parent_id ? nodes.get(s.parent_id) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}
