/**
 * MCP tools over threads (conversations whose turns are calls; docs/api/core.md §3.10): search
 * them as `/threads/stream_query` does, and summarize one from its statistics and its first
 * input and last output, each cut to WEFT_MCP_MAX_PAYLOAD_CHARS.
 */
import { z } from 'zod';
import { THREAD_SORT_FIELDS, type ThreadSchema } from '../../../contract/threads.js';
import { parseIsoToMicros } from '../../core/datetime.js';
import { NotFoundError } from '../../errors.js';
import { queryThreads } from '../threads/threadsQuery.js';
import { cappedNote, cutPayload, rowLimit } from './toolBounds.js';
import { limitArg, offsetArg, projectArg, defineTool, type ToolDef } from './toolKit.js';

/** A thread in a listing: its statistics and short previews (the store cuts them to 300 characters). */
const threadLine = (t: ThreadSchema) => ({
  thread_id: t.thread_id,
  turn_count: t.turn_count,
  error_count: t.error_count,
  start_time: t.start_time,
  last_updated: t.last_updated,
  total_tokens: t.total_tokens,
  total_cost: t.total_cost,
  p50_turn_duration_ms: t.p50_turn_duration_ms,
  first_input_preview: t.first_input_preview,
  last_output_preview: t.last_output_preview,
});

export const threadTools: readonly ToolDef[] = [
  defineTool(
    'search_threads',
    {
      title: 'Search threads',
      description:
        "Threads (conversations) of a project with their turn count, errors, tokens, cost, turn latency and the first input's and last output's previews. `text` finds threads whose turns' inputs or outputs hold every word (or the exact thread id).",
      input: {
        project_id: projectArg,
        text: z.string().min(1).max(500).optional().describe("Words that must all occur in the turns' inputs or outputs"),
        after: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; only turns started after it count'),
        before: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; only turns started before it count'),
        with_errors: z.boolean().optional().describe('Only threads with at least one failed turn'),
        sort_by: z.enum(THREAD_SORT_FIELDS).optional().describe('Default last_updated'),
        direction: z.enum(['asc', 'desc']).optional().describe('Default desc'),
        limit: limitArg(20),
        offset: offsetArg,
      },
    },
    async (args, { store, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 20, limits);
      const rows = queryThreads(store, {
        project_id: args.project_id,
        filter: {
          after_datetime: args.after ?? null,
          before_datetime: args.before ?? null,
          search: args.text ?? null,
          min: args.with_errors ? { error_count: 1 } : null,
        },
        sort_by: [{ field: args.sort_by ?? 'last_updated', direction: args.direction ?? 'desc' }],
        limit,
        offset: args.offset ?? 0,
      });
      const threads = await deadline.collect(rows);
      return {
        threads: threads.map(threadLine),
        offset: args.offset ?? 0,
        ...(threads.length === limit ? { next_offset: (args.offset ?? 0) + limit } : {}),
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'summarize_thread',
    {
      title: 'Summarize a thread',
      description:
        'One thread: turn count, finished and failed turns, tokens, cost, turn latency (p50, p99), how long it lasted, and its first input and last output (cut to the payload bound). Its turns are calls: search_calls with thread_id lists them.',
      input: { project_id: projectArg, thread_id: z.string().min(1) },
    },
    async (args, { store, limits, deadline }) => {
      const [thread] = await deadline.collect(
        queryThreads(store, { project_id: args.project_id, filter: { thread_ids: [args.thread_id] } }),
        1,
      );
      if (!thread) throw new NotFoundError(`Thread ${args.thread_id} not found in ${args.project_id}`);
      const turn = (id: string | null, columns: string[]) =>
        id ? deadline.race(store.calls.readCall({ projectId: args.project_id, id, columns })) : Promise.resolve(null);
      const first = await turn(thread.first_turn_id, ['inputs']);
      const last = await turn(thread.last_turn_id, ['output']);
      const start = parseIsoToMicros(thread.start_time);
      const end = parseIsoToMicros(thread.last_updated);
      const max = limits.maxMcpPayloadChars;
      return {
        thread_id: thread.thread_id,
        turn_count: thread.turn_count,
        finished_turn_count: thread.finished_turn_count,
        error_count: thread.error_count,
        total_tokens: thread.total_tokens,
        total_cost: thread.total_cost,
        p50_turn_duration_ms: thread.p50_turn_duration_ms,
        p99_turn_duration_ms: thread.p99_turn_duration_ms,
        start_time: thread.start_time,
        last_updated: thread.last_updated,
        duration_ms: start !== null && end !== null ? Math.round((end - start) / 1000) : null,
        first_turn_id: thread.first_turn_id,
        last_turn_id: thread.last_turn_id,
        first_input: cutPayload(first?.inputs ?? null, max),
        last_output: cutPayload(last?.output ?? null, max),
      };
    },
  ),
];
