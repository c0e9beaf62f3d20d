/** Feedback endpoints: thin maps from endpoint name to domain and store calls. */
import type { FeedbackCreateReq } from '../../contract/feedback.js';
import { formatMicros } from '../core/datetime.js';
import { checkAnnotationSpec, countStarField, toFeedbackWrite } from '../domain/feedback/feedback.js';
import { feedbackPayloadSchema, feedbackStats } from '../domain/feedback/feedbackStats.js';
import { feedbackAggregate } from '../domain/feedback/feedbackAggregate.js';
import { idsFromPurgeQuery } from '../domain/calls/purgeQuery.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor } from '../audit/auditTrail.js';
import { toProjectTableQuery } from '../store/ProjectTableQuery.js';
import { NotFoundError } from '../errors.js';
import type { FeedbackWrite } from '../store/FeedbackStore.js';
import type { Store } from '../store/Store.js';
import { metrics } from '../metrics/hooks.js';
import { redactFeedbackWrites } from '../domain/redaction/apply.js';

const PURGE_MESSAGE = 'Can only purge feedback by specifying one or more feedback ids';

/** The create answer for a stored row: its payload as processed (reactions gain aliases). */
const createdRes = (row: FeedbackWrite) => ({
  id: row.id,
  created_at: formatMicros(row.createdAt),
  wb_user_id: row.wbUserId,
  payload: JSON.parse(row.payloadJson) as Record<string, unknown>,
});

/** Every request validated before any is written, so a bad one leaves nothing behind. */
async function toWrites(store: Store, reqs: FeedbackCreateReq[], userId: string, now: number): Promise<FeedbackWrite[]> {
  const rows = reqs.map((req) => toFeedbackWrite(req, userId, now));
  for (const req of reqs) await checkAnnotationSpec(store, req);
  await redactFeedbackWrites(store, rows);
  return rows;
}

export const feedbackRoutes = defineRoutes({
  feedbackCreate: {
    runs: 'write',
    handler: async (req, { store, user, clock }) => {
      const [row] = await toWrites(store, [req], user.username, clock.nowMicros());
      await store.applyLast([{ kind: 'feedback.create', rows: [row!] }]);
      metrics.feedbackWritten(1);
      return createdRes(row!);
    },
  },

  feedbackBatchCreate: {
    runs: 'write',
    projects: (input) => input.batch.map((item) => item.project_id),
    handler: async ({ batch }, { store, user, clock }) => {
      const rows = await toWrites(store, batch, user.username, clock.nowMicros());
      await store.applyLast([{ kind: 'feedback.create', rows }]);
      metrics.feedbackWritten(rows.length);
      return { res: rows.map(createdRes) };
    },
  },

  feedbackQuery: {
    runs: 'read',
    // total_count (newest FeedbackQueryRes): every row the query matches, whatever the page.
    handler: async (req, { store }) => {
      const query = toProjectTableQuery(req);
      const countField = countStarField(req.fields);
      if (countField !== null) {
        // One row holding the count, which the page can still skip (docs/reference/shapes.md).
        const total_count = await store.feedback.countFeedback(query);
        const rows = [{ [countField]: total_count }].slice(req.offset ?? 0);
        return { result: req.limit == null ? rows : rows.slice(0, req.limit), total_count };
      }
      const [result, total_count] = await Promise.all([store.feedback.queryFeedback(query), store.feedback.countFeedback(query)]);
      return { result, total_count };
    },
  },

  feedbackPurge: {
    runs: 'write',
    handler: async (req, ctx) => {
      const ids = idsFromPurgeQuery(req.query, { allowIn: false, message: PURGE_MESSAGE });
      await ctx.store.feedback.purgeFeedback({ projectId: req.project_id, ids });
      const where = { target: req.project_id, entity: entityOf(req.project_id), projectId: req.project_id };
      await recordFor(ctx, { action: 'feedback.deleted', ...where, details: { requested: ids.length } });
      return {};
    },
  },

  feedbackReplace: {
    runs: 'write',
    handler: async ({ feedback_id, ...req }, { store, user, clock }) => {
      const [row] = await toWrites(store, [req], user.username, clock.nowMicros());
      // Unlike the reference (which purges, then creates whatever it was given), an unknown
      // id is a 404: replacing nothing is almost always a stale client view.
      const replaced = await store.feedback.replaceFeedback({ projectId: req.project_id, feedbackId: feedback_id, row: row! });
      if (!replaced) throw new NotFoundError(`Feedback ${feedback_id} not found in project ${req.project_id}`);
      metrics.feedbackWritten(1);
      return createdRes(row!);
    },
  },

  feedbackStats: {
    runs: 'read',
    handler: (req, { store, clock }) => feedbackStats(store.feedback, req, clock.nowMicros()),
  },

  feedbackAggregate: {
    runs: 'write',
    handler: (req, { store }) => feedbackAggregate(store.feedback, req),
  },

  feedbackPayloadSchema: {
    runs: 'read',
    handler: (req, { store, clock }) => feedbackPayloadSchema(store.feedback, req, clock.nowMicros()),
  },
});
