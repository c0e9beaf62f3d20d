/**
 * How the dashboard names an item's review progress. The rule itself is the contract's
 * `reviewProgress` (reviewed once reviewers_per_item reviewers completed it), the one the server
 * counts the summary and the queue list with, so an item never reads "Completed" while the
 * queue says it still lacks reviews (docs/api/evaluations.md §1).
 */
import { reviewProgress, type ReviewProgress } from '../../../contract/annotationQueueLeads.js';
import type { QueueItem } from './annotationQueries.js';

export { reviewProgress, type ReviewProgress };

/** What each progress reads as in lists and counts. */
export const PROGRESS_LABELS: Record<ReviewProgress, string> = {
  reviewed: 'Completed',
  partly_reviewed: 'Partly reviewed',
  in_progress: 'In progress',
  skipped: 'Skipped',
  unstarted: 'Not started',
};

/** An item's progress and its label: "1 of 2 reviews" while it has some but not all its reviews. */
export function itemProgress(
  item: Pick<QueueItem, 'annotation_state' | 'completed_reviews'>,
  reviewersPerItem: number,
): { progress: ReviewProgress; label: string } {
  const progress = reviewProgress(item, reviewersPerItem);
  const label = progress === 'partly_reviewed' ? `${item.completed_reviews} of ${reviewersPerItem} reviews` : PROGRESS_LABELS[progress];
  return { progress, label };
}
