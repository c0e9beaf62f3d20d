/**
 * MCP tools over annotation queues: list a project's queues, and read what one produced (its
 * summary: progress and answers per question, and a page of items with every reviewer's answers),
 * from the same reads as the queue's `results` and `summary` endpoints.
 */
import { z } from 'zod';
import { AnnotationState } from '../../../contract/annotationQueues.js';
import { NotFoundError } from '../../errors.js';
import { queueSortKeys, toQueueSchema } from '../annotation/annotationQueues.js';
import { queueResults, queueSummary } from '../annotation/annotationResults.js';
import { cappedNote, rowLimit } from './toolBounds.js';
import { limitArg, offsetArg, projectArg, defineTool, type ToolDef } from './toolKit.js';

export const annotationTools: readonly ToolDef[] = [
  defineTool(
    'list_annotation_queues',
    {
      title: 'List annotation queues',
      description: "A project's annotation queues: id, name, description, questions (scorer refs) and reviewers wanted per item.",
      input: { project_id: projectArg, limit: limitArg(50), offset: offsetArg },
    },
    async (args, { store, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 50, limits);
      const rows = store.annotationQueues.queryQueues({
        projectId: args.project_id,
        sortBy: queueSortKeys(null),
        limit,
        offset: args.offset ?? 0,
      });
      const queues = (await deadline.collect(rows)).map(toQueueSchema);
      return {
        queues: queues.map((q) => ({
          queue_id: q.id,
          name: q.name,
          description: q.description,
          questions: q.scorer_refs,
          reviewers_per_item: q.reviewers_per_item,
          created_at: q.created_at,
        })),
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'annotation_results',
    {
      title: 'Annotation results of a queue',
      description:
        "What a queue's reviewers answered: progress (items per state, per reviewer), per question the answer counts, mean and agreement, and a page of items (in queue order) with each reviewer's state and answers.",
      input: {
        project_id: projectArg,
        queue_id: z.string().min(1),
        states: z.array(AnnotationState).optional().describe('Only items in these states'),
        limit: limitArg(50),
        offset: offsetArg,
      },
    },
    async (args, { store, clock, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 50, limits);
      const queue = await deadline.race(store.annotationQueues.readQueue({ projectId: args.project_id, queueId: args.queue_id }));
      if (!queue) throw new NotFoundError(`Annotation queue ${args.queue_id} not found in ${args.project_id}`);
      const summary = await deadline.race(queueSummary(store, queue, clock.nowMicros()));
      const offset = args.offset ?? 0;
      const page = await deadline.race(queueResults(store, { queue, states: args.states ?? null, limit, offset }));
      return {
        queue: { queue_id: queue.id, name: queue.name, questions: queue.scorerRefs },
        summary,
        items: page.rows.map(({ item, reviews }) => ({
          item_id: item.id,
          call_id: item.call_id,
          thread_id: item.thread_id,
          op_name: item.call_op_name,
          state: item.annotation_state,
          reviews,
        })),
        total_items: page.total,
        offset,
        ...(offset + page.rows.length < page.total ? { next_offset: offset + page.rows.length } : {}),
        ...cappedNote(capped, limits),
      };
    },
  ),
];
