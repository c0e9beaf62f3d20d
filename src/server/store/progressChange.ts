/**
 * Applying a ProgressChange (AnnotationQueuesStore.ts) to the state a backend read: the one
 * rule every backend shares, so the same change means the same thing on each.
 */
import { BadRequestError, QueueItemNotFoundError } from '../errors.js';
import type { ProgressChange, ProgressState } from './AnnotationQueuesStore.js';

/** The state to write (null: keep everything as it is); throws the change's 400 when it refuses. */
export function decideProgress(change: ProgressChange, current: ProgressState | null): ProgressState | null {
  const outcome = change[current ?? 'none'];
  if ('refuse' in outcome) throw new BadRequestError(outcome.refuse);
  return 'write' in outcome ? outcome.write : null;
}

/**
 * The 404 of a progress write on an item that is not live (unknown, in another queue, or in a
 * deleted queue). Thrown, not answered, so a batch carrying the item's answers fails with it.
 */
export const itemNotFound = (itemId: string, queueId: string) =>
  new QueueItemNotFoundError(`Queue item ${itemId} not found in queue ${queueId}`);
