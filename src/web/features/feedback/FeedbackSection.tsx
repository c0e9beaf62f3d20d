/**
 * The feedback part of a call's detail panel: annotation fields, notes, and who reacted how.
 * Reactions are given in the panel's header (ReactionBar); here they are listed with their
 * authors so each can be read and the viewer's own removed.
 */
import { ReactionIcon } from '../../components/ui/ReactionIcon.js';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Section } from '../../components/ui/Section.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { AnnotationFields } from './AnnotationFields.js';
import { FeedbackMeta } from './FeedbackMeta.js';
import { groupReactions } from '../../entities/feedback/feedbackModel.js';
import { callFeedbackQueryOptions, useFeedbackMutations } from '../../entities/feedback/feedbackQueries.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { NotesList } from './NotesList.js';
import './feedback.css';

/** Feedback section for one call. */
export function FeedbackSection({ projectId, callId }: { projectId: string; callId: string }) {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const { data: rows, error, refetch } = useQuery(callFeedbackQueryOptions({ projectId, callId }));
  const count = rows?.length ?? 0;
  return (
    <Section title={count ? `Feedback (${count})` : 'Feedback'}>
      {error ? (
        <ErrorState error={error} onRetry={() => void refetch()} compact />
      ) : (
        <div className="fb-section">
          <AnnotationFields projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
          <NotesList projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
          <ReactionList projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
        </div>
      )}
    </Section>
  );
}

/** Each reaction with its author and time; the viewer's own can be removed. */
function ReactionList({
  projectId,
  callId,
  rows,
  me,
}: {
  projectId: string;
  callId: string;
  rows: Parameters<typeof groupReactions>[0];
  me: string;
}) {
  const { remove } = useFeedbackMutations({ projectId, callId });
  const reactions = groupReactions(rows, me).flatMap((g) => g.rows.map((row) => ({ emoji: g.emoji, row })));
  if (reactions.length === 0) return null;
  return (
    <div className="fb-block">
      <h4>Reactions</h4>
      <ul className="fb-list" aria-label="Reactions given">
        {reactions.map(({ emoji, row }) => (
          <li key={row.id}>
            <span className="fb-emoji" role="img" aria-label={emoji}>
              <ReactionIcon emoji={emoji} />
            </span>
            <FeedbackMeta row={row} />
            {row.wb_user_id === me && (
              <button type="button" className="link-button" disabled={remove.isPending} onClick={() => remove.mutate(row.id)}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <MutationError mutations={[remove]} />
    </div>
  );
}
