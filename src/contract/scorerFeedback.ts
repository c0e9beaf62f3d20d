/**
 * How a feedback row without a scorer's typed results reads (contract/feedback.ts
 * ScorerFeedbackFields): empty collections, as the reference's Array and Map columns answer, the
 * agent's name and version `""` and the status `"UNSET"` (its non-null columns' defaults), and the
 * other text fields null. A module of its own, without zod, so the stores and the dashboard's tests
 * share it without the schemas.
 */
export const NO_SCORER_FEEDBACK = {
  scorer_tags: [] as string[],
  scorer_tag_reasons: {} as Record<string, string>,
  scorer_tag_confidences: {} as Record<string, number>,
  scorer_ratings: {} as Record<string, number>,
  scorer_rating_reasons: {} as Record<string, string>,
  scorer_rating_confidences: {} as Record<string, number>,
  scorer_trace_id: null as string | null,
  span_agent_name: '' as string | null,
  span_agent_version: '' as string | null,
  span_conversation_id: null as string | null,
  span_status_code: 'UNSET' as string | null,
  span_trace_id: null as string | null,
};
